import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import type { Address } from "viem";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  chainHeads,
  collectionsOn,
  DEMO_KEYS,
  mintItem,
  postJson,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { eventually } from "../eventually.ts";
import { rpc } from "../rpc.ts";
import { needing } from "../needs.ts";
import { mountTmpfs } from "./tmpfs.ts";

// Every kind of write, while the journal's disk is full (filled by another file): a mint, control
// actions and a JSON-RPC call from outside are refused with 507 (STORAGE_FULL; -32000 over
// JSON-RPC) before anything reaches a chain, and reads answer. The file gone, writes are taken again.

const disk = mountTmpfs("4m");
let sim: Simulator | undefined;
afterAll(async () => {
  await sim?.close();
  if ("dir" in disk) disk.unmount();
});
const withTmpfs = needing("why" in disk ? disk.why : undefined, "run the tests as root");

/** Fills the disk under `dir` to the last byte with one file; answers its path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    for (let size = 4096; size >= 1; size >>= 1) {
      try {
        for (;;) writeSync(fd, chunk, 0, size);
      } catch {
        // smaller pieces, until not one byte fits
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

withTmpfs.it(
  "refuses every kind of write with 507 on a full disk, before any chain moves; takes them again once there is space",
  async () => {
    const { dir } = disk as Exclude<typeof disk, { why: string }>;
    const stateDir = join(dir, "state");
    sim = await startTestSimulator(demoWorld({ baseUrl: "http://sim.test" }), {
      stateDir,
      ...RPC_ON_FREE_PORTS,
    });
    const [collection] = (await collectionsOn(sim, 56)) as [Address];
    const mint = () => mintItem(sim!, { collection, chainId: 56 });
    expect((await mint()).status).toBe(200);

    const filler = fill(dir);
    // The journal's last page may still take a line or two.
    let refused = await mint();
    for (let tries = 0; refused.status === 200 && tries < 10; tries += 1) refused = await mint();
    expect(refused.status).toBe(507);
    const heads = await chainHeads(sim);
    expect(refused.body).toEqual({
      error: "STORAGE_FULL",
      message: `The journal in ${stateDir} cannot be written (ENOSPC): nothing was changed`,
      errors: [expect.stringMatching(/^ENOSPC: no space left on device.*: free space there; writes answer 507 until/)],
    });
    for (const [path, body] of [
      ["/_sim/time/advance", { seconds: 60 }],
      ["/_sim/snapshots", {}],
      ["/_sim/api-keys", { name: "late" }],
      ["/_sim/collections", { chainId: 56, name: "Late", owner: DEMO_KEYS.studio }],
      [
        "/_sim/scenario",
        { timeline: [{ action: "transfer", item: "sky-saddle", from: "alice", to: "bob", amount: 1 }] },
      ],
    ] as const)
      expect((await postJson(sim, path, body)).status, path).toBe(507);
    await expect(rpc(sim.rpcUrls.get(56)!, "evm_mine")).rejects.toThrow(
      /evm_mine: \{"code":-32000,"message":"[^"]*journal .* cannot be written \(ENOSPC\)/,
    );
    expect(await chainHeads(sim), "nothing reached a chain").toEqual(heads);
    expect((await call(sim, "/api/v2/collection")).status).toBe(200);
    expect((await call(sim, "/_sim/state")).body).toMatchObject({
      kept: true,
      dir: stateDir,
      journal: { writable: false, reason: expect.stringMatching(/^ENOSPC/) },
    });

    rmSync(filler);
    // Writes resume by themselves once the disk takes them (the journal asks it again every second).
    await eventually(async () => expect((await mint()).status).toBe(200));
    expect((await call(sim, "/_sim/state")).body.journal.writable).toBe(true);
    expect((await postJson(sim, "/_sim/api-keys", { name: "late" })).status).toBe(200);
    expect(await rpc(sim.rpcUrls.get(56)!, "evm_mine")).toBe("0");
  },
);
