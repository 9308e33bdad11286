import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { CHECKPOINT_FILE } from "../../src/journal/image.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { until } from "../eventually.ts";
import { readWorld } from "../world-reads.ts";
import { rpc } from "../rpc.ts";
import { collectionsOn, DEMO_KEYS, mintItem, postJson, RPC_ON_FREE_PORTS, startTestSimulator } from "../harness.ts";

// A restart with --state answers from the journal's checkpoint and the lines after it, folded,
// before its chains have replayed anything, and answers the same once they have. The journal is
// folded into new checkpoints in the background as it grows.

const started: Simulator[] = [];
afterAll(() => Promise.all(started.map((sim) => sim.close())));

async function start(stateDir: string, checkpointEveryBytes?: number, cacheDir?: string): Promise<Simulator> {
  const sim = await startTestSimulator(demoWorld({ baseUrl: "http://sim.test" }), {
    stateDir,
    ...RPC_ON_FREE_PORTS,
    ...(checkpointEveryBytes ? { checkpointEveryBytes } : {}),
    // A world the cache can hold: its uris name no port picked at random.
    ...(cacheDir ? { cacheDir, publicUrl: "http://sim.test" } : {}),
  });
  started.push(sim);
  return sim;
}

/** What a client reads, over HTTP only (the chains need not run): every collection, and every item's history and metadata. */
async function answers(sim: Simulator) {
  return (await readWorld(sim.url, { control: false })).answers;
}

describe("a restart from a checkpoint", () => {
  it("answers from the folded journal before the chains replay it, the same as they then hold, and writes once they do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-"));
    const sim = await start(dir);
    await sim.live;
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    const mint = (on: Simulator, name: string) =>
      mintItem(on, { collection: bnb, chainId: 56, item: { name, initialSupply: 3 } });
    await until("a first checkpoint", () => sim.control.state().checkpoint !== undefined);
    // What a crash would leave: this checkpoint, and the journal after it.
    const crashed = readFileSync(join(dir, CHECKPOINT_FILE));
    // After the checkpoint: mints, a collection and a key of the control API, time, a snapshot and a revert to it.
    expect((await mint(sim, "Kept One")).status).toBe(200);
    const key = (await postJson(sim, "/_sim/api-keys", { name: "guild" })).body;
    expect(
      (
        await postJson(sim, "/_sim/collections", {
          chainId: 137,
          name: "Banners",
          owner: key.apiKey,
          description: "folded",
        })
      ).status,
    ).toBe(200);
    await postJson(sim, "/_sim/time/advance", { seconds: 3600 });
    const { id } = (await postJson(sim, "/_sim/snapshots", {})).body;
    expect((await mint(sim, "Taken Back")).status).toBe(200);
    expect((await postJson(sim, `/_sim/snapshots/${id}/revert`, {})).status).toBe(200);
    const atSnapshot = await answers(sim);
    expect((await mint(sim, "Kept Two")).status).toBe(200);
    const before = await answers(sim);
    await sim.close();

    // A stop writes a checkpoint of the journal's end: the restart folds nothing, and answers from its parts as they are read.
    expect(existsSync(join(dir, CHECKPOINT_FILE))).toBe(true);
    const again = await start(dir);
    expect(again.load.source).toBe("state");
    const early = await answers(again);
    await again.live;
    expect(again.restored).toMatchObject({ answeredFrom: "checkpoint", failedAgain: 0 });
    expect(again.control.state().checkpoint?.behind).toBe(0);
    expect(early, "answered before the chains replayed the journal").toEqual(before);
    expect(await answers(again), "answered once they hold it").toEqual(before);
    await again.close();

    // After a crash: the earlier checkpoint, and every line after it folded on (mints, keys, time, a snapshot and a revert).
    writeFileSync(join(dir, CHECKPOINT_FILE), crashed);
    const afterCrash = await start(dir);
    expect(afterCrash.load.source).toBe("state");
    expect(await answers(afterCrash), "folded from the earlier checkpoint").toEqual(before);
    await afterCrash.live;
    expect(await answers(afterCrash)).toEqual(before);
    await afterCrash.close();

    const last = await start(dir);
    await last.live;
    expect((await mint(last, "After")).status).toBe(200);
    // The snapshot taken before the restarts is still there to go back to.
    expect((await postJson(last, `/_sim/snapshots/${id}/revert`, {})).status).toBe(200);
    expect(await answers(last)).toEqual(atSnapshot);
  });

  it("folds the journal into a new checkpoint in the background as it grows, and a restart folds only what came after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-"));
    const sim = await start(dir, 4_000);
    await sim.live;
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    await until("a first checkpoint", () => sim.control.state().checkpoint !== undefined);
    const first = sim.control.state().checkpoint!;
    for (let n = 0; n < 12; n += 1) expect((await mintItem(sim, { collection: bnb, chainId: 56 })).status).toBe(200);
    await until("a checkpoint folded past the mints", () => sim.control.state().checkpoint!.offset > first.offset);
    const { checkpoint, journal } = sim.control.state();
    expect(checkpoint!.offset).toBeGreaterThan(first.offset + 4_000);
    expect(checkpoint!.offset + checkpoint!.behind).toBe(journal!.bytes);
    expect(statSync(join(dir, CHECKPOINT_FILE)).mtimeMs).toBeGreaterThan(Date.parse(first.at));
    const before = await answers(sim);
    await sim.close();

    const again = await start(dir, 4_000);
    expect(await answers(again)).toEqual(before);
    await again.live;
    expect(again.restored?.answeredFrom).toBe("checkpoint");
  });

  it("without a checkpoint yet, folds the whole journal onto the cached world (an image at offset 0): the same answers, the world's keys and the journal's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-"));
    const cache = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-cache-"));
    const sim = await start(dir, undefined, cache);
    await sim.live;
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    expect((await mintItem(sim, { collection: bnb, chainId: 56 })).status).toBe(200);
    const key = (await postJson(sim, "/_sim/api-keys", { name: "guild" })).body;
    const before = await answers(sim);
    await sim.close();
    // What a crash before the first checkpoint leaves: the journal alone (and the world in the cache).
    rmSync(join(dir, CHECKPOINT_FILE));

    const again = await start(dir, undefined, cache);
    expect(again.load.source).toBe("state");
    // The API keys at once: the world's own (the cache keeps none) and the one the journal made.
    expect(again.accounts.list().map(({ apiKey }) => apiKey)).toEqual(
      expect.arrayContaining([DEMO_KEYS.studio, key.apiKey]),
    );
    expect(await answers(again), "folded onto the cached world before the chains replayed it").toEqual(before);
    await again.live;
    expect(again.restored).toMatchObject({ answeredFrom: "cache", failedAgain: 0 });
    expect(await answers(again)).toEqual(before);
    expect((await mintItem(again, { collection: bnb, chainId: 56 })).status).toBe(200);
    const banners = { chainId: 137, name: "Banners", owner: key.apiKey, description: "after the fold" };
    expect((await postJson(again, "/_sim/collections", banners)).status).toBe(200);
  });

  it("after a crash, replays first what it cannot fold (a JSON-RPC evm_revert), then writes a checkpoint past it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-checkpoint-"));
    const sim = await start(dir);
    await sim.live;
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    await until("a first checkpoint", () => sim.control.state().checkpoint !== undefined);
    const crashed = readFileSync(join(dir, CHECKPOINT_FILE));
    const rpcOn56 = (method: string, params: unknown[] = []) => rpc(sim.rpcUrls.get(56)!, method, params);
    const snapshot = await rpcOn56("evm_snapshot");
    expect((await mintItem(sim, { collection: bnb, chainId: 56 })).status).toBe(200);
    expect(await rpcOn56("evm_revert", [snapshot])).toBe(true);
    const before = await answers(sim);
    await sim.close();
    // A crash after the revert: the checkpoint from before it, which the fold cannot pass.
    writeFileSync(join(dir, CHECKPOINT_FILE), crashed);

    const again = await start(dir);
    expect(again.load.source).toBe("replay");
    await again.live;
    expect(again.restored?.answeredFrom).toBe("replay");
    expect(await answers(again)).toEqual(before);
    await until("a checkpoint past the revert", () => again.control.state().checkpoint?.behind === 0);
    await again.close();
    const third = await start(dir);
    expect(third.load.source).toBe("state");
    expect(await answers(third)).toEqual(before);
    expect(existsSync(join(dir, CHECKPOINT_FILE))).toBe(true);
  });
});
