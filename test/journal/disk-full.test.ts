import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { until } from "../eventually.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { demoWithState, itemsByName, json, mint, mintTargets, type Answered } from "./mints.ts";
import { needing } from "../needs.ts";
import { mountTmpfs } from "./tmpfs.ts";

// --state on a 1 MB tmpfs under a mint load of 8 clients: once the disk is full, writes answer
// 507 STORAGE_FULL (never a 500) and reads keep answering 200; /_sim/state says the journal is not
// writable. Space given back (the tmpfs made larger), writes are taken again without a restart.
// Then kill -9 and a restart: every mint answered 200 is there exactly once, none answered 507 is.

const disk = mountTmpfs("1m");
afterAll(() => {
  killSimulatorProcesses();
  if ("dir" in disk) disk.unmount();
});
const withTmpfs = needing("why" in disk ? disk.why : undefined, "run the tests as root");

const args = demoWithState;

withTmpfs.it(
  "a full disk: 507 before anything is acknowledged, reads answer, writes resume once space is back, and a restart has every acknowledged mint once",
  async () => {
    const { dir, resize } = disk as Exclude<typeof disk, { why: string }>;
    const stateDir = join(dir, "state");
    const sim = await startSimulatorProcess(args(stateDir));
    const targets = await mintTargets(sim.base);
    const minted: (Answered & { name: string; target: (typeof targets)[number] })[] = [];
    const reads: number[] = [];
    let sent = 0;
    const refused = () => minted.filter(({ status }) => status === 507).length;
    const minter = async () => {
      while (refused() < 40 && sent < 5_000) {
        const name = `Full ${++sent}`;
        const target = targets[sent % 2]!;
        minted.push({ ...(await mint(sim.base, target, name)), name, target });
      }
    };
    const reader = async () => {
      while (refused() < 40 && sent < 5_000) {
        reads.push((await fetch(`${sim.base}/api/v2/collection?perPage=5`)).status);
        reads.push((await fetch(`${sim.base}/api/v2/item/events/${targets[0]!.collection}/1`)).status);
      }
    };
    await Promise.all([...Array.from({ length: 8 }, minter), reader()]);

    const statuses = new Set(minted.map(({ status }) => status));
    expect([...statuses].sort(), "mint answers while the disk filled").toEqual([200, 507]);
    for (const { body } of minted.filter(({ status }) => status === 507)) {
      expect(body.error).toBe("STORAGE_FULL");
      expect(body.message).toContain(stateDir);
      expect(body.errors.join(" ")).toMatch(/ENOSPC/);
    }
    expect(new Set(reads), "reads while the disk filled").toEqual(new Set([200]));
    const full = await json(`${sim.base}/_sim/state`);
    expect(full).toMatchObject({
      kept: true,
      dir: stateDir,
      journal: { writable: false, reason: expect.stringMatching(/^ENOSPC/) },
    });
    expect(sim.output()).toMatch(/cannot be written \(ENOSPC/);

    // Space back: writes are taken again on their own (the journal asks the disk again every second).
    resize("8m");
    await until(
      "the journal says it can be written again",
      async () => (await json(`${sim.base}/_sim/state`)).journal.writable,
    );
    const after: Answered = await mint(sim.base, targets[0]!, "After");
    minted.push({ ...after, name: "After", target: targets[0]! });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(sim.output()).toMatch(/can be written again/);

    sim.child.kill("SIGKILL");
    await sim.exited;
    const again = await startSimulatorProcess(args(stateDir));
    const acknowledged = minted.filter(({ status }) => status === 200);
    const taken = minted.filter(({ status }) => status === 507);
    expect(acknowledged.length).toBeGreaterThan(100);
    for (const { collection } of targets) {
      const items = await itemsByName(again.base, collection);
      for (const { name, body } of acknowledged.filter((one) => one.target.collection === collection)) {
        expect(items.get(name), `${name} (answered 200)`).toEqual([{ tokenId: body.tokenIds[0], txs: [body.txHash] }]);
      }
      for (const { name } of taken) expect(items.get(name), `${name} (answered 507)`).toBeUndefined();
    }
  },
  240_000,
);
