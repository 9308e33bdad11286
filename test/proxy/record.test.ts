import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioChains } from "../../src/schemas/scenario.ts";
import { defaultWorld, fixtureWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { startTestSimulator } from "../harness.ts";
import { printedBy, type Printed } from "../processes.ts";

// `nft-sim proxy --record` as a user runs it: a process in front of a simulator serving the default world, whose
// traffic reads two collections; at Ctrl-C the world it writes holds those two, and no key the traffic carried.

const NFT_SIM = resolve("src/cli/nft-sim.ts");
const HEADER_KEY = "record-header-key-0123456789";
const QUERY_KEY = "record-query-key-0123456789";

interface Listed {
  address: string;
  slug: string;
  chainId: number;
}

const children: ChildProcess[] = [];
async function recordingProxy(upstream: string, file: string) {
  const env = { ...process.env };
  delete env.IMPORT_API_KEY;
  const child = spawn(process.execPath, [NFT_SIM, "proxy", "--port", "0", "--upstream", upstream, "--record", file], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  children.push(child);
  const printed: Printed = printedBy(child);
  const banner = await printed.waitFor(/Ctrl-C stops/, 60_000);
  const url = /nft-sim proxy: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
  const stop = () =>
    new Promise<number | null>((done) => {
      child.once("exit", (code) => done(code));
      child.kill("SIGINT");
    });
  return { url, printed, stop };
}

let sim: Simulator;
let collections: Listed[];
/** A collection whose token 1 has a history. */
let withItem: Listed;
const dir = mkdtempSync(join(tmpdir(), "nft-sim-record-test-"));

beforeAll(async () => {
  sim = await startTestSimulator(defaultWorld());
  const list = (await (await fetch(`${sim.url}/api/v2/collection?perPage=100`)).json()) as { collections: Listed[] };
  collections = list.collections;
  for (const listed of collections.slice(1)) {
    if ((await fetch(`${sim.url}/api/v2/item/events/${listed.address}/1`)).status !== 200) continue;
    withItem = listed;
    break;
  }
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await sim?.close();
});

describe("nft-sim proxy --record", () => {
  it("writes the collections the traffic read as a world that loads, reusing its answers, with no key in it", async () => {
    const [first, second] = [collections[0], withItem];
    const file = join(dir, "recorded.json");
    const proxy = await recordingProxy(sim.url, file);
    const reads = [
      fetch(`${proxy.url}/api/v2/collection/${first!.address}`, { headers: { ALTURA_API_KEY: HEADER_KEY } }),
      fetch(`${proxy.url}/api/v2/collection?perPage=1&slug=${first!.slug}&apiKey=${QUERY_KEY}`),
      fetch(`${proxy.url}/api/v2/item/events/${second!.address}/1`, { headers: { ALTURA_API_KEY: HEADER_KEY } }),
    ];
    for (const answer of await Promise.all(reads)) expect(answer.status).toBe(200);
    expect(await proxy.stop()).toBe(0);
    const output = proxy.printed.output();
    const told = new RegExp(`recorded 2 collections in ${file} \\((\\d+) answers from the traffic, \\d+ fetched\\)`);
    expect(output).toMatch(told);
    expect(Number(told.exec(output)![1])).toBeGreaterThan(0);

    const written = readFileSync(file, "utf8");
    for (const key of [HEADER_KEY, QUERY_KEY]) {
      expect(written).not.toContain(key);
      expect(output).not.toContain(key);
    }
    const world = fixtureWorld(file);
    const loaded = await startTestSimulator(world, {
      chains: scenarioChains(world.scenario).map(({ chainId }) => ({ chainId, rpcPort: 0 })),
    });
    try {
      const served = (await (await fetch(`${loaded.url}/api/v2/collection?perPage=100`)).json()) as {
        collections: Listed[];
      };
      const named = (listed: Listed[]) => listed.map(({ chainId, slug }) => `${chainId}/${slug}`).sort();
      expect(named(served.collections)).toEqual(named([first!, second!]));
    } finally {
      await loaded.close();
    }
  }, 300_000);

  it("a world it cannot write is one line and exit 1, not a crash", async () => {
    const file = join(dir, "no-such-folder", "recorded.json");
    const proxy = await recordingProxy(sim.url, file);
    expect((await fetch(`${proxy.url}/api/v2/collection/${collections[0]!.address}`)).status).toBe(200);
    expect(await proxy.stop()).toBe(1);
    const output = proxy.printed.output();
    expect(output).toMatch(new RegExp(`^nft-sim proxy: --record: ${file} not written: .*ENOENT`, "m"));
    expect(output).not.toMatch(/^\s+at /m);
    expect(existsSync(file)).toBe(false);
  }, 300_000);
});
