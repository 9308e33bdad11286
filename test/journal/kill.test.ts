import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { JOURNAL_FILE } from "../../src/journal/journal.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { readWorld } from "../world-reads.ts";
import { demoWithState, mint, mintTargets } from "./mints.ts";

// kill -9 in the middle of a load of 200 mints, then a restart with the same --state: every mint
// that was answered 200 is in its item's history exactly once, every mint the journal kept is
// whole, and the rest of the world (every collection, every item and history there was before) is
// as it was.

afterAll(killSimulatorProcesses);

const startCli = (stateDir: string) => startSimulatorProcess(demoWithState(stateDir));

interface Minted {
  chainId: number;
  collection: string;
  txHash: string;
  tokenId: number;
  name: string;
}

/** Whole entries in the journal file (a torn last line is not one). */
function wholeEntries(dir: string): number {
  return readFileSync(join(dir, JOURNAL_FILE), "utf8")
    .split("\n")
    .filter((line) => {
      try {
        return typeof JSON.parse(line).t === "string";
      } catch {
        return false;
      }
    }).length;
}

it("kill -9 during 200 mints loses no answered mint, duplicates none, and leaves the rest of the world as it was", async () => {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-kill-"));
  const first = await startCli(dir);
  expect(first.output()).toContain(`state      ${dir} (journal: 0 changes replayed)`);
  // On each chain, a collection the studio mints on, and a recipient that holds nothing yet.
  const targets = await mintTargets(first.base);
  const before = await readWorld(first.base);

  const answered: Minted[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < 200) {
      sent += 1;
      const target = targets[sent % 2]!; // the two chains in turn, whatever order the workers run in
      const name = `Load ${sent}`;
      const { status, body } = await mint(first.base, target, name);
      if (status === 0) return; // the process was killed
      if (status === 200)
        answered.push({
          chainId: target.chainId,
          collection: target.collection,
          txHash: body.txHash,
          tokenId: body.tokenIds[0]!,
          name,
        });
      if (answered.length >= 100 && first.child.exitCode === null) first.child.kill("SIGKILL");
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => worker()));
  await first.stop("SIGKILL");
  expect(answered.length).toBeGreaterThanOrEqual(100);
  expect(answered.length).toBeLessThan(200);
  const kept = wholeEntries(dir);

  const second = await startCli(dir);
  expect(second.output()).toContain(`state      ${dir} (journal: ${kept - 1} changes replayed)`);
  const after = await readWorld(second.base);

  // Every answered mint: in its item's history exactly once, under the name it was sent with.
  for (const mint of answered) {
    const events = after.histories.get(`${mint.collection}/${mint.tokenId}`) as
      { transactionHash: string }[] | undefined;
    expect(
      events?.filter((event) => event.transactionHash === mint.txHash),
      `${mint.txHash} in ${mint.collection}/${mint.tokenId}`,
    ).toHaveLength(1);
    expect(after.items.get(mint.collection)!.find((item) => item.tokenId === mint.tokenId)?.name).toBe(mint.name);
  }
  expect(new Set(answered.map((mint) => `${mint.chainId}-${mint.tokenId}`)).size).toBe(answered.length);

  // Every item there was before: the same history. Every item the load made: one whole mint, and no gap in the token ids.
  for (const [key, history] of before.histories) expect(after.histories.get(key), key).toEqual(history);
  for (const { collection, recipient } of targets) {
    const old = before.items.get(collection)!;
    const made = after.items.get(collection)!.slice(old.length);
    const mine = answered.filter((mint) => mint.collection === collection);
    expect(mine.length, `answered mints on ${collection}`).toBeGreaterThan(0);
    expect(after.items.get(collection)!.slice(0, old.length)).toEqual(old);
    expect(made.map((item) => item.tokenId)).toEqual(made.map((_, i) => old.length + 1 + i));
    expect(made.length).toBeGreaterThanOrEqual(mine.length);
    expect(made.length).toBeLessThanOrEqual(mine.length + 8); // at most the requests in flight when it died
    for (const item of made) {
      expect(item, `${collection}/${item.tokenId}`).toMatchObject({
        name: expect.stringMatching(/^Load \d+$/),
        supply: "2",
        holders: 1,
        events: 1,
      });
      const [mint] = after.histories.get(`${collection}/${item.tokenId}`) as {
        event: string;
        from: string;
        to: string;
        amount: string;
      }[];
      expect(mint).toMatchObject({
        event: "TransferSingle",
        from: "0x0000000000000000000000000000000000000000",
        to: recipient,
        amount: "2",
      });
    }
  }

  // The collections: as before, but for the new holder of each target.
  const holdersGained = new Set(targets.map((target) => target.collection));
  expect(after.count).toBe(before.count);
  expect(after.collections).toEqual(
    before.collections.map((collection) =>
      holdersGained.has(collection.address) ? { ...collection, holders: collection.holders + 1 } : collection,
    ),
  );

  await second.stop();
}, 240_000);
