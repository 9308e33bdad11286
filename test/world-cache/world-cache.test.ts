import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadAbis } from "../../src/core/abi.ts";
import { DEFAULT_OPTIONS } from "../../src/core/config.ts";
import { encodeImage, openImage, readRest, writeImage } from "../../src/journal/image.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { cacheWorldAhead } from "../../src/simulator/world-image.ts";
import { worldCacheKey } from "../../src/world-cache/world-cache.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { eventually, until } from "../eventually.ts";
import { readWorld } from "../world-reads.ts";
import { call, mintItem, startTestSimulator } from "../harness.ts";

// A world replayed once is cached (an image of its index as loaded, the metadata on chain included);
// the next start answers reads from that image at once, replays the world onto its chains in the
// background, and checks the chains gave the very head the image holds.

const PUBLIC_URL = "http://127.0.0.1:3000";
const dir = mkdtempSync(join(tmpdir(), "world-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => startTestSimulator(demoWorld({ baseUrl: PUBLIC_URL }), { cacheDir: dir, publicUrl: PUBLIC_URL });

/** Every read answer of the world: the list, each collection, each item's history and metadata, as raw bytes. */
async function readAll(sim: Simulator): Promise<Map<string, string>> {
  return (await readWorld(sim.url, { control: false })).answers;
}

/** The cache's files, once the first is written (it is written after the world is in). */
function cachedFiles(): Promise<string[]> {
  return eventually(() => {
    const files = readdirSync(dir).filter((name) => name.endsWith(".world"));
    if (files.length === 0) throw new Error(`no world cached in ${dir}`);
    return files;
  });
}

describe("the world cache", () => {
  let replayed: Map<string, string>;
  let handles: unknown;

  it("a first start replays the world, then caches it", async () => {
    const sim = await start();
    try {
      expect(sim.load).toEqual({ source: "replay", cacheDir: dir });
      replayed = await readAll(sim);
      handles = sim.handles.copy();
      const files = await cachedFiles();
      expect(files).toHaveLength(1);
      // An image of the world's index: no API key nor wallet key is kept there (they are the world's own).
      expect(openImage(join(dir, files[0]!), () => true)?.head.accounts).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it("a world cached ahead (at npm install, in the package) is answered from on a first start, byte for byte what was replayed", async () => {
    const ahead = mkdtempSync(join(tmpdir(), "world-cache-ahead-"));
    const empty = mkdtempSync(join(tmpdir(), "world-cache-empty-"));
    try {
      const options = { ...DEFAULT_OPTIONS, port: 0, serveRpc: false, cacheDir: empty, publicUrl: PUBLIC_URL };
      const inputs = { world: demoWorld({ baseUrl: PUBLIC_URL }), options, abis: loadAbis(), url: PUBLIC_URL };
      expect(await cacheWorldAhead(inputs, ahead)).toBe("cached");
      expect(await cacheWorldAhead(inputs, ahead)).toBe("already");
      expect(readdirSync(empty)).toEqual([]);
      const sim = await startTestSimulator(demoWorld({ baseUrl: PUBLIC_URL }), {
        cacheDir: empty,
        shippedWorldsDir: ahead,
        publicUrl: PUBLIC_URL,
      });
      try {
        expect(sim.load).toEqual({ source: "cache", cacheDir: empty, cachedIn: ahead });
        expect(await readAll(sim)).toEqual(replayed);
        await sim.live;
      } finally {
        await sim.close();
      }
      // A world the cache never holds is not cached ahead either.
      expect(await cacheWorldAhead({ ...inputs, options: { ...options, publicUrl: undefined } }, ahead)).toBe(
        "uncacheable",
      );
    } finally {
      rmSync(ahead, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("the next start answers from the cache before its chains hold the world, byte for byte what they answer afterwards; a mint waits for them", async () => {
    const sim = await start();
    try {
      let live = false;
      void sim.live.then(() => (live = true));
      expect(sim.load.source).toBe("cache");
      // Where the world landed is read back from the cached index: its handles are there at once.
      expect(sim.handles.copy()).toEqual(handles);
      // The chains start replaying once the first answer is out: that one is the cache's, whatever the machine's speed.
      const [[path, answer]] = replayed;
      const first = await fetch(`${sim.url}${path}`);
      expect(live).toBe(false);
      expect(`${first.status} ${await first.text()}`).toBe(answer);
      expect(await readAll(sim)).toEqual(replayed);

      const { body } = await call(sim, `/api/v2/collection?chainId=56`);
      const collection = body.collections[0].address;
      const minted = await mintItem(sim, { collection, chainId: 56 });
      expect(live).toBe(true);
      expect(minted.status).toBe(200);
      const history = await call(sim, `/api/v2/item/events/${collection}/${minted.body.tokenIds[0]}`);
      expect(history.body.events.map((event: { transactionHash: string }) => event.transactionHash)).toEqual([
        minted.body.txHash,
      ]);
    } finally {
      await sim.close();
    }
  });

  it("a cache that differs from what the chains replay is noticed: the chains' answers win, a warning says so, and the cache is rewritten", async () => {
    const [file] = await cachedFiles();
    const path = join(dir, file!);
    const opened = openImage(path, () => true)!;
    const { format: _format, ...of } = opened.head;
    const cached = { ...opened.head, snapshots: readRest(opened) };
    const [first] = cached.chains;
    const created = first!.models.collections.values().next().value!;
    first!.models.collections.set(created.address, {
      ...created,
      metadata: '{"description":"not what the world says"}',
    });
    first!.headHash = `0x${"ab".repeat(32)}`;
    writeImage(path, encodeImage(of, cached));

    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const sim = await start();
    try {
      expect(sim.load.source).toBe("cache");
      // The first answer is the cache's (the chains start once it is out), and the cache's list differs.
      const [[path, answer]] = replayed;
      const first = await fetch(`${sim.url}${path}`);
      expect(`${first.status} ${await first.text()}`).not.toBe(answer);
      await sim.live;
      expect(warn.mock.calls.flat().join("\n")).toMatch(/differs from what the chains replayed/);
      expect(await readAll(sim)).toEqual(replayed);
    } finally {
      await sim.close();
      warn.mockRestore();
    }
    await until(
      "the cache rewritten with the chains' head",
      () => openImage(path, () => true)?.head.chains[0]!.headHash !== first!.headHash,
    );
    const again = await start();
    try {
      expect(await readAll(again)).toEqual(replayed);
      await again.live;
    } finally {
      await again.close();
    }
  });

  it("is not used for a world whose uris name a port picked at random", async () => {
    const sim = await startTestSimulator(demoWorld(), { cacheDir: dir });
    try {
      expect(sim.load).toEqual({ source: "replay" });
    } finally {
      await sim.close();
    }
  });
});

describe("the key of a world", () => {
  const keyChains = [
    { chainId: 56, startBlock: 1 },
    { chainId: 137, startBlock: 1 },
  ];

  it("keys a world the same whenever what decides its chains is the same, in whatever order the chains come", () => {
    const key = worldCacheKey("demo@http://127.0.0.1:3000", keyChains);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(worldCacheKey("demo@http://127.0.0.1:3000", [...keyChains].reverse())).toBe(key);
  });

  it("keys another world, another chain or another start height apart", () => {
    const key = worldCacheKey("demo@http://127.0.0.1:3000", keyChains);
    const others = [
      worldCacheKey("demo@http://127.0.0.1:3001", keyChains),
      worldCacheKey("default@http://127.0.0.1:3000", keyChains),
      worldCacheKey("demo@http://127.0.0.1:3000", [keyChains[0]!]),
      worldCacheKey("demo@http://127.0.0.1:3000", [keyChains[0]!, { chainId: 137, startBlock: 2 }]),
      worldCacheKey("demo@http://127.0.0.1:3000", [...keyChains, { chainId: 1, startBlock: 1 }]),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });
});
