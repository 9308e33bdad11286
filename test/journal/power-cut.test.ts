import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE, type LockHolder } from "../../src/journal/lock.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { startSimulator, type Simulator, type StartOptions } from "../../src/simulator/simulator.ts";
import { postJson } from "../harness.ts";
import { itemsByName, json, mint, mintTargets, type MintTarget } from "./mints.ts";
import { PowerCutDisk, restoreCut } from "./power-cut-disk.ts";

// Power loss, not only kill -9 (which keeps the page cache): the simulator runs in process on a disk that keeps what
// was not synced apart (power-cut-disk.ts), under a load of mints and fragments, with a checkpoint folded every few
// kilobytes, and the power goes at a random one of its disk operations. A restart on only what that left opens the
// journal and answers every write acknowledged (200) before the cut as it was answered, once; anything else it holds
// is whole. The checkpoint's fold runs in the simulator's thread here (a thread cannot share the test's disk): the
// same fold and the same writes as its thread runs, but not the hop to it.

const started: Simulator[] = [];
afterAll(() => Promise.all(started.map((sim) => sim.close())));

/** The state directory a restart finds after the power goes now. */
async function restartAfterCut(sim: Simulator, disk: PowerCutDisk, dir: string): Promise<Simulator> {
  disk.cutNow();
  await stop(sim);
  const restored = mkdtempSync(join(tmpdir(), "nft-sim-power-cut-restored-"));
  if (restoreCut(disk.cut!.image, dir, restored).includes(LOCK_FILE)) rmSync(join(restored, LOCK_FILE));
  return start(restored);
}

const world = () => demoWorld({ baseUrl: "http://sim.test" });

async function start(stateDir: string, more: StartOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(world(), {
    port: 0,
    serveRpc: false,
    stateDir,
    publicUrl: "http://sim.test",
    ...more,
  });
  started.push(sim);
  await sim.live;
  return sim;
}

async function stop(sim: Simulator): Promise<void> {
  await sim.close();
  started.splice(started.indexOf(sim), 1);
}

/** A write answered 200 before the power went: a mint (its item) or a fragment (the item it adds). */
interface Acknowledged {
  name: string;
  collection: string;
  txHash?: string;
  tokenId?: number;
}

/** The fragment that adds one item named `name` to the demo world's first collection on chain 56. */
const fragment = (n: number) => ({
  items: [{ id: `cut-${n}`, collection: "dragon-riders", name: `Cut fragment ${n}`, initialSupply: 1 }],
  timeline: [{ action: "addItem", item: `cut-${n}`, by: "studio", to: "alice" }],
});

/** A mulberry32 of the run's seed: the disk's coins (which names survive, how much of an append). */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const totals = {
  cuts: 0,
  acknowledged: 0,
  survivedUnacknowledged: 0,
  renamesBeforeCut: 0,
  before: new Map<string, number>(),
};

/** One run: a load on a disk whose power goes at operation `cutAt`, then a restart on what it left. */
async function cutDuringLoad(cutAt: number, coins: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-power-cut-"));
  const disk = new PowerCutDisk(randomOf(coins));
  const sim = await start(dir, { disk, checkpointEveryBytes: 2_500 });
  const targets = await mintTargets(sim.url);
  const chain56 = targets.find((target) => target.chainId === 56)!;
  const { collections } = await json(`${sim.url}/api/v2/collection?chainId=56`);
  const dragonRiders = (collections as { address: string; name: string }[]).find(({ name }) => /dragon/i.test(name))!;
  expect(dragonRiders, "the demo world's dragon-riders collection").toBeDefined();
  disk.cutAt(cutAt);
  const acknowledged: Acknowledged[] = [];
  const sent: { name: string; collection: string }[] = [];
  const minter = async (from: number) => {
    for (let n = from; !disk.cut && n < from + 30; n += 1) {
      if (n % 7 === 3) {
        const name = `Cut fragment ${n}`;
        sent.push({ name, collection: dragonRiders.address });
        const answer = await postJson(sim, "/_sim/scenario", fragment(n));
        if (answer.status === 200 && !disk.cut) acknowledged.push({ name, collection: dragonRiders.address });
        continue;
      }
      const target: MintTarget = n % 2 ? chain56 : targets.find((one) => one !== chain56)!;
      const name = `Cut mint ${n}`;
      sent.push({ name, collection: target.collection });
      const answer = await mint(sim.url, target, name);
      if (answer.status === 200 && !disk.cut)
        acknowledged.push({
          name,
          collection: target.collection,
          txHash: answer.body.txHash,
          tokenId: answer.body.tokenIds[0],
        });
    }
  };
  await Promise.all([0, 100, 200, 300].map(minter));
  disk.cutNow();
  await stop(sim);

  const { image, before, ran } = disk.cut!;
  const restored = mkdtempSync(join(tmpdir(), "nft-sim-power-cut-restored-"));
  const names = restoreCut(image, dir, restored);
  // The power went with the process that held the lock: what is left of it names this process, which still runs.
  if (names.includes(LOCK_FILE)) {
    const holder = JSON.parse(readFileSync(join(restored, LOCK_FILE), "utf8")) as LockHolder;
    expect(holder.pid, "the lock the cut left").toBe(process.pid);
    rmSync(join(restored, LOCK_FILE));
  }
  expect(names, `what the cut before ${before} left`).toContain("journal.jsonl");
  const again = await start(restored);
  expect(again.restored, "the journal opened and replayed").toBeDefined();

  const made = new Map<string, { tokenId: number; txs: string[] }[]>();
  for (const collection of new Set(sent.map((one) => one.collection)))
    for (const [name, copies] of await itemsByName(again.url, collection))
      if (name.startsWith("Cut ")) made.set(`${collection} ${name}`, copies);
  for (const { name, collection, txHash, tokenId } of acknowledged) {
    const copies = made.get(`${collection} ${name}`);
    expect(copies, `${name}, acknowledged before the cut before ${before}`).toHaveLength(1);
    if (txHash) expect(copies, `${name} as it was answered`).toEqual([{ tokenId, txs: [txHash] }]);
  }
  for (const [name, copies] of made) {
    expect(copies, `${name}: made once, whole (its one event)`).toHaveLength(1);
    expect(copies[0]!.txs, `${name}: its history`).toHaveLength(1);
  }
  const sentNames = new Set(sent.map(({ name, collection }) => `${collection} ${name}`));
  expect(
    [...made.keys()].filter((name) => !sentNames.has(name)),
    "nothing never sent",
  ).toEqual([]);
  await stop(again);
  rmSync(dir, { recursive: true, force: true });
  rmSync(restored, { recursive: true, force: true });

  totals.cuts += 1;
  totals.acknowledged += acknowledged.length;
  totals.survivedUnacknowledged += made.size - acknowledged.length;
  totals.renamesBeforeCut += ran.rename ?? 0;
  const op = before.split(" ").slice(0, 1).join("") + (before.includes("checkpoint") ? " (checkpoint)" : "");
  totals.before.set(op, (totals.before.get(op) ?? 0) + 1);
}

describe("a power cut", () => {
  it("at a random disk operation of a mint, fragment and checkpoint load: the restart opens the journal and holds every acknowledged write as answered, and nothing half-made", async () => {
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
    console.log(`power-cut property: seed ${seed} (FC_SEED=${seed} replays it)`);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 250 }), fc.integer(), cutDuringLoad), {
      seed,
      numRuns: 10,
      endOnFailure: true,
    });
    console.log(
      `power-cut property: ${totals.cuts} cuts, ${totals.acknowledged} acknowledged writes checked, ` +
        `${totals.survivedUnacknowledged} unacknowledged found whole, ${totals.renamesBeforeCut} checkpoints renamed into place before the cuts; cut before: ${JSON.stringify(Object.fromEntries(totals.before))}`,
    );
    expect(totals.cuts).toBe(10);
    expect(totals.acknowledged, "acknowledged writes checked after the cuts").toBeGreaterThan(0);
  }, 240_000);

  it("a failed fdatasync (EIO) refuses the write with 507 STORAGE_FULL and acknowledges nothing; the disk healed, writes are taken again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-power-cut-eio-"));
    const disk = new PowerCutDisk(randomOf(1));
    const sim = await start(dir, { disk });
    const [target] = await mintTargets(sim.url);
    const kept = await mint(sim.url, target!, "Cut kept");
    expect(kept.status).toBe(200);
    disk.fail("fdatasync", "EIO", (path) => path.endsWith("journal.jsonl"));
    const refused = await mint(sim.url, target!, "Cut refused");
    expect(refused.status, JSON.stringify(refused.body)).toBe(507);
    expect(refused.body.error).toBe("STORAGE_FULL");
    expect(refused.body.errors.join(" ")).toMatch(/EIO/);
    expect(disk.refused.some((one) => one.startsWith("EIO fdatasync"))).toBe(true);
    expect((await itemsByName(sim.url, target!.collection)).has("Cut refused"), "taken back at once").toBe(false);
    disk.heal();
    let after = await mint(sim.url, target!, "Cut after");
    for (let tries = 0; tries < 30 && after.status === 507; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await mint(sim.url, target!, `Cut after ${tries}`);
    }
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    const again = await restartAfterCut(sim, disk, dir);
    const items = await itemsByName(again.url, target!.collection);
    expect(items.get("Cut kept")).toEqual([{ tokenId: kept.body.tokenIds[0], txs: [kept.body.txHash] }]);
    expect(items.has("Cut refused"), "the refused mint, after the power cut").toBe(false);
    await stop(again);
  }, 60_000);

  it("a full disk (ENOSPC) while a checkpoint is written loses nothing: the journal stays the truth", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-power-cut-enospc-"));
    const disk = new PowerCutDisk(randomOf(2));
    disk.fail("write", "ENOSPC", (path) => path.endsWith("checkpoint.partial"));
    const sim = await start(dir, { disk, checkpointEveryBytes: 2_500 });
    const targets = await mintTargets(sim.url);
    const acknowledged: { name: string; target: MintTarget; txHash: string; tokenId: number }[] = [];
    for (let n = 0; n < 16; n += 1) {
      const target = targets[n % 2]!;
      const answer = await mint(sim.url, target, `Cut full ${n}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      acknowledged.push({
        name: `Cut full ${n}`,
        target,
        txHash: answer.body.txHash,
        tokenId: answer.body.tokenIds[0],
      });
    }
    expect(disk.refused.filter((one) => one.startsWith("ENOSPC write")).length, "checkpoints refused").toBeGreaterThan(
      0,
    );
    expect(existsSync(join(dir, "checkpoint.partial")), "a refused checkpoint's file is removed").toBe(false);
    const again = await restartAfterCut(sim, disk, dir);
    for (const { name, target, txHash, tokenId } of acknowledged)
      expect((await itemsByName(again.url, target.collection)).get(name), name).toEqual([{ tokenId, txs: [txHash] }]);
    await stop(again);
  }, 60_000);
});
