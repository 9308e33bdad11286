import { watch } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { demoWithState, itemsByName, mint, mintTargets, type MintTarget } from "./mints.ts";

// kill -9 at random moments of a checkpoint, under a mint load: the journal is folded into a new
// checkpoint every few kilobytes (STATE_CHECKPOINT_BYTES), and the process is killed a random
// number of checkpoints in, a random moment after one began to be written (reading, folding,
// writing, syncing, renaming). The restart (from whatever checkpoint survived, and the journal
// after it) has every mint answered 200 exactly once, and nothing twice.

afterAll(killSimulatorProcesses);

const args = demoWithState;

interface Acknowledged {
  name: string;
  target: MintTarget;
  txHash: string;
  tokenId: number;
}

async function killDuringCheckpoint(checkpointsIn: number, delayMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-kill-"));
  const sim = await startSimulatorProcess(args(dir), { env: { STATE_CHECKPOINT_BYTES: "3000" } });
  const targets = await mintTargets(sim.base);
  const acknowledged: Acknowledged[] = [];
  let sent = 0;
  let begun = 0;
  // Checkpoints are counted from the first acknowledged mint on, so every run has acknowledged writes to check.
  const watcher = watch(dir, (_, name) => {
    if (name !== "checkpoint.partial" || acknowledged.length === 0 || ++begun !== checkpointsIn) return;
    setTimeout(() => sim.child.kill("SIGKILL"), delayMs);
  });
  const killed = sim.exited.then(() => watcher.close());
  const minter = async () => {
    while (sim.child.exitCode === null && sim.child.signalCode === null && sent < 2_000) {
      const name = `Fold ${++sent}`;
      const target = targets[sent % 2]!;
      const answer = await mint(sim.base, target, name);
      if (answer.status === 200)
        acknowledged.push({ name, target, txHash: answer.body.txHash, tokenId: answer.body.tokenIds[0] });
      else if (answer.status !== 0) throw new Error(`a mint answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
  };
  await Promise.all([...Array.from({ length: 8 }, minter), killed]);
  expect(begun, "checkpoints begun before the kill").toBeGreaterThanOrEqual(checkpointsIn);
  expect(acknowledged.length, "mints acknowledged before the kill").toBeGreaterThan(0);
  console.log(
    `killed ${delayMs} ms into checkpoint ${checkpointsIn}: ${acknowledged.length} acknowledged mints to find after the restart`,
  );

  const again = await startSimulatorProcess(args(dir));
  for (const target of targets) {
    const items = await itemsByName(again.base, target.collection);
    const mine = acknowledged.filter((one) => one.target === target);
    for (const { name, txHash, tokenId } of mine)
      expect(items.get(name), `${name}, answered 200`).toEqual([{ tokenId, txs: [txHash] }]);
    const made = [...items.entries()].filter(([name]) => name.startsWith("Fold "));
    expect(
      made.every(([, copies]) => copies.length === 1),
      "no mint twice",
    ).toBe(true);
    expect(made.length, "no more made than answered or in flight").toBeLessThanOrEqual(mine.length + 8);
  }
  again.child.kill("SIGTERM");
  await again.exited;
}

it("kill -9 at random moments of a checkpoint under load loses nothing acknowledged and doubles nothing", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 40 }), killDuringCheckpoint),
    { numRuns: 3, endOnFailure: true },
  );
}, 600_000);
