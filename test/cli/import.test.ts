import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTED_ANSWERS, type FidelityReport } from "../../src/import/report.ts";
import { loadScenarioFile } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { defaultWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { startTestSimulator } from "../harness.ts";
import {
  ADDRESS,
  LIVE_MARKET,
  originalService,
  SHARED_ADDRESS,
  SHARED_BLOCK,
  SHARED_HISTORIES,
  sharedBlockService,
  unmintedSharedBlockService,
  crowdedSharedBlockService,
  MAIN_MARKET,
  OTHER_MARKET,
  TWO_MARKETS_ADDRESS,
  TWO_MARKETS_BUYER,
  TWO_MARKETS_HISTORIES,
  TWO_MARKETS_SELLER,
  twoMarketsService,
  upstream,
} from "./live-upstream.ts";

// `nft-sim import` as a process, against real HTTP upstreams: a simulator serving the default world, and small servers
// this file writes (the original's documented answer, one that throttles and drops, one that dies, one not the API).

const CLI = new URL("../../src/cli/import.ts", import.meta.url).pathname;
const SECRET = "read-key-never-written";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runImport(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 240_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "import-"));
});

describe("nft-sim import", () => {
  let sim: Simulator;
  afterAll(() => sim?.close());

  it("round trip: the default world, imported collection by collection through HTTP, answers the same but for the listed fields", async () => {
    sim = await startTestSimulator(defaultWorld());
    const list = (await (await fetch(`${sim.url}/api/v2/collection?perPage=100`)).json()) as {
      collections: { address: string }[];
    };
    expect(list.collections).toHaveLength(35);
    const collections = list.collections.flatMap(({ address }) => ["--collection", address]);
    const args = ["--from", sim.url, ...collections, "--now", "2025-06-01T12:00:00Z", "--out", "round.json"];
    const run = await runImport(
      [...args, "--report", "round-report.json", "--cache-dir", "round-cache", "--api-key", SECRET],
      dir,
    );
    const report = JSON.parse(readFileSync(join(dir, "round-report.json"), "utf8")) as FidelityReport;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(report.faithful).toBe(true);
    expect(report.answers).toBeGreaterThan(1_700);
    expect(report.equal).toBeGreaterThan(1_000);
    // Only the listed fields differ, each with its reason: every event's kind, accounts (`from`, `to`), amount, token,
    // block, time, currency, price and worth are the live ones, as are every item's metadata and each collection's
    // owner, holders, volumes and count.
    expect(Object.keys(report.fields).sort()).toEqual(["id", "transactionHash", "uri"]);
    for (const { why } of Object.values(report.fields)) expect(why).toBeTruthy();
    const paths = report.entries.flatMap(({ differences }) => differences.map(({ path }) => path));
    expect(paths.filter((path) => /(^|\.)(from|to|ownerAddress)$/.test(path))).toEqual([]);
    // Each live account is the world's at its live address (sent as by impersonation), the owners' too.
    const world = JSON.parse(readFileSync(join(dir, "round.json"), "utf8")) as {
      chains: { chainId: number; marketplace?: string }[];
      accounts: { name: string; address?: string }[];
      collections: { owner: string; address: string }[];
    };
    // Each chain's marketplace is the live one, learnt from the histories' escrow transfers.
    expect(new Map(world.chains.map(({ chainId, marketplace }) => [chainId, marketplace]))).toEqual(
      new Map(sim.chains.all().map((chain) => [chain.chainId, chain.contracts.marketplace])),
    );
    const addresses = new Map(world.accounts.map(({ name, address }) => [name, address]));
    const live = (await (await fetch(`${sim.url}/api/v2/collection?perPage=100`)).json()) as {
      collections: { address: string; ownerAddress: string }[];
    };
    for (const { owner, address } of world.collections)
      expect(addresses.get(owner)).toBe(live.collections.find((c) => c.address === address)!.ownerAddress);
    console.log(
      `round trip: ${report.answers} answers compared, ${report.equal} equal; differing fields: ` +
        Object.entries(report.fields)
          .map(([field, { count }]) => `${field} ${count}`)
          .join(", "),
    );
    const cached = readdirSync(join(dir, "round-cache")).map((file) => join("round-cache", file));
    for (const file of ["round.json", "round-report.json", ...cached])
      expect(readFileSync(join(dir, file), "utf8")).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  }, 300_000);

  it("the original's documented history, served by a small upstream, comes back at its live address, its escrow the live marketplace, every compared field equal, and exits 0", async () => {
    const live = await upstream(originalService);
    try {
      const run = await runImport(
        [
          "--from",
          live.base,
          "--collection",
          ADDRESS,
          "--out",
          "original.json",
          "--report",
          "original-report.json",
          "--cache-dir",
          "original-cache",
          "--now",
          "2023-01-02T00:00:00Z",
        ],
        dir,
      );
      const report = JSON.parse(readFileSync(join(dir, "original-report.json"), "utf8")) as FidelityReport;
      const history = report.entries.find((entry) => entry.url.includes(`/item/events/${ADDRESS}/9?`))!;
      const differing = history.differences.map((difference) => difference.path);
      const compared = [
        "event",
        "amount",
        "tokenId",
        "blockNumber",
        "timestamp",
        "currency",
        "price",
        "currencyPrice",
        "worth",
        "itemRef",
        "itemCollection",
      ];
      for (const i of [0, 1]) for (const field of compared) expect(differing).not.toContain(`events[${i}].${field}`);
      // The seller, the listing's `to` ("") and the escrow are the live ones: the marketplace is at its live address.
      for (const i of [0, 1]) for (const end of ["from", "to"]) expect(differing).not.toContain(`events[${i}].${end}`);
      expect(report.fields["marketplace escrow"]).toBeUndefined();
      const world = JSON.parse(readFileSync(join(dir, "original.json"), "utf8")) as { chains: unknown[] };
      expect(world.chains).toEqual([
        expect.objectContaining({ chainId: 56, marketplace: "0xe29f0b490f0d89ca7acac1c7bed2e07ecad65201" }),
      ]);
      expect(run.stdout).toContain("the marketplace on chain 56 at 0xe29f0b490f0d89ca7acac1c7bed2e07ecad65201");
      // The collection answers at its live address: the same URL, the same address.
      expect(history.localUrl).toContain(`/item/events/${ADDRESS}/9?`);
      const collection = report.entries.find((entry) => entry.url.endsWith(`/collection/${ADDRESS}`))!;
      expect(collection.differences.map((difference) => difference.path)).not.toContain("collection.address");
      expect(report.fields.address).toBeUndefined();
      // The history has no mint, which the replay adds (one event more, the oldest): listed, and nothing else of it.
      expect(history.differences.find(({ path }) => path === "events.length")).toMatchObject({
        live: 2,
        local: 3,
        listed: "mint added",
      });
      expect(run.stdout).toContain("no mint in its history");
      // Token ids 1 to 8 have no live history (404): the replay's own items, held by nobody (holders as live).
      const filled = report.entries.filter(({ url }) => /\/item\/events\/0x[0-9a-f]+\/[1-8]\?/.test(url));
      expect(filled).toHaveLength(8);
      for (const entry of filled)
        expect(entry.differences).toContainEqual(
          expect.objectContaining({ path: "(status)", live: 404, local: 200, listed: "filled token" }),
        );
      expect(Object.keys(report.fields)).not.toContain("holders");
      // Every difference is a listed one: the import exits 0.
      expect(report.fields["mint added"]).toEqual({ count: 1, why: LISTED_ANSWERS["mint added"].why });
      expect(report.faithful).toBe(true);
      expect(run.code, run.stdout).toBe(0);
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("two live transactions of one block come back in one block, in their live order, and the import exits 0", async () => {
    const live = await upstream(sharedBlockService);
    try {
      const args = ["--from", live.base, "--collection", SHARED_ADDRESS, "--out", "shared.json"];
      const run = await runImport(
        [...args, "--report", "shared-report.json", "--cache-dir", "shared-cache", "--now", "2023-01-02T00:00:00Z"],
        dir,
      );
      const report = JSON.parse(readFileSync(join(dir, "shared-report.json"), "utf8")) as FidelityReport;
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(report.faithful).toBe(true);
      expect(report.fields["marketplace escrow"]).toBeUndefined();
      // The import's own replay answers both histories with every event's block and time the live ones; the transfer,
      // first in the live block, keeps its id (its log index), so nothing went in before it.
      for (const tokenId of [1, 2]) {
        const history = report.entries.find((entry) =>
          entry.url.includes(`/item/events/${SHARED_ADDRESS}/${tokenId}?`),
        )!;
        const differing = history.differences.map((difference) => difference.path);
        expect(
          differing.filter((path) => /blockNumber|timestamp|length|event$/.test(path)),
          `token ${tokenId}`,
        ).toEqual([]);
        if (tokenId === 2) expect(differing).not.toContain("events[0].id");
        // The listing's escrow transfer keeps its id too: its approval went in a free block before the shared one.
        if (tokenId === 1) expect(differing).not.toContain("events[1].id");
      }
      // The world written replays so again, served as `npm run simulate -- --fixture` serves it.
      const world = scenarioWorld(loadScenarioFile(join(dir, "shared.json")));
      const sim = await startTestSimulator(world);
      try {
        const history = async (tokenId: number) =>
          (await (await fetch(`${sim.url}/api/v2/item/events/${SHARED_ADDRESS}/${tokenId}`)).json()).events as {
            event: string;
            id: string;
            blockNumber: number;
            timestamp: number;
          }[];
        const [listed, escrow] = await history(1);
        const [moved] = await history(2);
        for (const event of [listed!, escrow!, moved!]) {
          expect(event.blockNumber).toBe(SHARED_BLOCK);
          expect(event.timestamp).toBe((SHARED_HISTORIES[1]![0] as { timestamp: number }).timestamp);
        }
        expect([listed!.event, escrow!.event, moved!.event]).toEqual([
          "ItemListed",
          "TransferSingle",
          "TransferSingle",
        ]);
        const logIndex = (id: string) => Number(id.split("-").at(-1));
        expect(moved!.id).toBe(`TransferSingle-${SHARED_BLOCK}-0`);
        // The listing moved its token into the live marketplace's escrow.
        expect(escrow).toMatchObject({ from: "0xa000000000000000000000000000000000000001", to: LIVE_MARKET });
        // The block holds the live transactions only, so its logs are numbered as live.
        expect(escrow!.id).toBe(`TransferSingle-${SHARED_BLOCK}-1`);
        expect(logIndex(listed!.id)).toBe(2);
      } finally {
        await sim.close();
      }
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("a token whose history lacks its mint, moved in a shared live block, is minted in a free block below it: the block's ids are the live ones", async () => {
    const live = await upstream(unmintedSharedBlockService);
    try {
      const args = ["--from", live.base, "--collection", SHARED_ADDRESS, "--out", "unminted.json"];
      const run = await runImport(
        [...args, "--report", "unminted-report.json", "--cache-dir", "unminted-cache", "--now", "2023-01-02T00:00:00Z"],
        dir,
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, "unminted-report.json"), "utf8")) as FidelityReport;
      expect(report.faithful).toBe(true);
      const differing = (tokenId: number) =>
        report.entries
          .find((entry) => entry.url.includes(`/item/events/${SHARED_ADDRESS}/${tokenId}?`))!
          .differences.map(({ path }) => path);
      // Token 2's history: its transfer, first in the shared block (log 0, as live), then the mint the replay adds (one
      // event more, listed); token 1's escrow transfer keeps its log 1.
      expect(differing(2).sort()).toEqual(["events.length", "events[0].transactionHash"]);
      expect(differing(1)).not.toContain("events[1].id");
      expect(report.fields["mint added"]?.count).toBe(1);
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("a listing in a shared live block right after another event's block gets its approval last in that block: the shared block's ids are the live ones", async () => {
    const live = await upstream(crowdedSharedBlockService);
    try {
      const args = ["--from", live.base, "--collection", SHARED_ADDRESS, "--out", "crowded.json"];
      const run = await runImport(
        [...args, "--report", "crowded-report.json", "--cache-dir", "crowded-cache", "--now", "2023-01-02T00:00:00Z"],
        dir,
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, "crowded-report.json"), "utf8")) as FidelityReport;
      expect(report.faithful).toBe(true);
      const ids = (tokenId: number) =>
        report.entries
          .find((entry) => entry.url.includes(`/item/events/${SHARED_ADDRESS}/${tokenId}?`))!
          .differences.filter(({ path }) => path.endsWith(".id"))
          .map(({ path }) => path);
      // Token 1: only the listing's id (its transaction's hash) and its mint's (the Collection logs the item's
      // description first) differ; the escrow transfer keeps log 1 of the shared block. Token 2: its transfer keeps log
      // 0 there; only its mint's id differs.
      expect(ids(1)).toEqual(["events[0].id", "events[2].id"]);
      expect(ids(2)).toEqual(["events[1].id"]);
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("a chain whose histories show two marketplaces, each with a listing 7, gets the one first used; each listing replays as its own, the other's escrow is listed, and the import exits 0", async () => {
    const live = await upstream(twoMarketsService);
    try {
      const args = ["--from", live.base, "--collection", TWO_MARKETS_ADDRESS, "--out", "two.json"];
      const run = await runImport(
        [...args, "--report", "two-report.json", "--cache-dir", "two-cache", "--now", "2023-01-02T00:00:00Z"],
        dir,
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, "two-report.json"), "utf8")) as FidelityReport;
      expect(report.faithful).toBe(true);
      const world = JSON.parse(readFileSync(join(dir, "two.json"), "utf8")) as {
        chains: unknown[];
        timeline: { action: string; listing?: string }[];
      };
      expect(world.chains).toEqual([expect.objectContaining({ chainId: 56, marketplace: MAIN_MARKET })]);
      expect(run.stdout).toContain(`the marketplace on chain 56 at ${MAIN_MARKET}, the escrow of 2 live transfers`);
      expect(run.stdout).toContain(`${OTHER_MARKET} (2)`);
      // Listing 7 of each marketplace is a listing of its own in the world: the placed one's keeps the plain name.
      const opened = world.timeline.filter(({ action }) => action === "list").map(({ listing }) => listing);
      expect(opened).toEqual(["l56-7", "l56-m2-7"]);
      // Only token 2's escrow transfers, through the other marketplace, answer the placed one: listed.
      expect(report.fields["marketplace escrow"]).toEqual({
        count: 2,
        why: LISTED_ANSWERS["marketplace escrow"].why,
      });
      const escrowed = report.entries
        .flatMap(({ differences }) => differences)
        .filter(({ listed }) => listed === "marketplace escrow");
      expect(escrowed).toMatchObject([
        { path: "events[1].from", live: OTHER_MARKET, local: MAIN_MARKET },
        { path: "events[4].to", live: OTHER_MARKET, local: MAIN_MARKET },
      ]);
      // Served as `npm run simulate -- --fixture` serves it, each listing's events answer as live: kind, price, seller,
      // buyer, worth, block and time.
      const sim = await startTestSimulator(scenarioWorld(loadScenarioFile(join(dir, "two.json"))));
      try {
        const compared = ["event", "from", "to", "price", "worth", "amount", "blockNumber", "timestamp"] as const;
        const pick = (event: Record<string, unknown>) => Object.fromEntries(compared.map((f) => [f, event[f]]));
        for (const tokenId of [1, 2]) {
          const url = `${sim.url}/api/v2/item/events/${TWO_MARKETS_ADDRESS}/${tokenId}`;
          const { events } = (await (await fetch(url)).json()) as { events: Record<string, unknown>[] };
          const escrowEnds = (event: Record<string, unknown>) => ({
            ...pick(event),
            ...(event.from === OTHER_MARKET ? { from: MAIN_MARKET } : {}),
            ...(event.to === OTHER_MARKET ? { to: MAIN_MARKET } : {}),
          });
          expect(events.map(pick), `token ${tokenId}`).toEqual(TWO_MARKETS_HISTORIES[tokenId]!.map(escrowEnds));
        }
        const [sale] = (await (await fetch(`${sim.url}/api/v2/item/events/${TWO_MARKETS_ADDRESS}/2`)).json()).events;
        expect(sale).toMatchObject({ event: "Swapped", from: TWO_MARKETS_SELLER, to: TWO_MARKETS_BUYER, price: 12 });
      } finally {
        await sim.close();
      }
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("finishes against an upstream that answers 429 with Retry-After and drops connections", async () => {
    let calls = 0;
    const live = await upstream((req, res, base) => {
      calls++;
      // The first requests in flight: throttled, then their connections dropped, then answered.
      if (calls <= 2) return void res.writeHead(429, { "retry-after": "1" }).end();
      if (calls <= 4) return void req.socket.destroy();
      originalService(req, res, base);
    });
    try {
      const run = await runImport(
        [
          "--from",
          live.base,
          "--collection",
          ADDRESS,
          "--out",
          "throttled.json",
          "--cache-dir",
          "throttled-cache",
          "--no-report",
          "--now",
          "2023-01-02T00:00:00Z",
        ],
        dir,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(calls).toBeGreaterThan(4);
      expect(run.stdout).toMatch(/Wrote throttled\.json: 1 collections, 1 items, 2 events/);
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("against an upstream that dies midway exits 2 with one line; a rerun finishes from the cache without fetching", async () => {
    let alive = 6;
    const live = await upstream((req, res, base) =>
      alive-- > 0 ? originalService(req, res, base) : req.socket.destroy(),
    );
    const args = [
      "--from",
      live.base,
      "--collection",
      ADDRESS,
      "--out",
      "died.json",
      "--cache-dir",
      "died-cache",
      "--no-report",
      "--tries",
      "3",
      "--miss-run",
      "10",
      "--now",
      "2023-01-02T00:00:00Z",
    ];
    try {
      const died = await runImport([...args, "--concurrency", "1"], dir);
      expect(died.code).toBe(2);
      expect(died.stderr.trim().split("\n")).toHaveLength(1);
      expect(died.stderr).toMatch(/^import: the upstream could not be read: .*a rerun resumes from the cache/);
      alive = 1_000;
      const resumed = await runImport(args, dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const hits = live.hits();
      const again = await runImport(args, dir);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/\(0 answers fetched, \d+ from the cache\)/);
      expect(live.hits()).toBe(hits);
    } finally {
      live.server.close();
    }
  }, 120_000);

  it("refuses a base URL that is not this API (exit 2, naming what it expected), and an address with no collection (exit 1)", async () => {
    const html = await upstream((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"),
    );
    const live = await upstream(originalService);
    try {
      const notApi = await runImport(["--from", html.base, "--collection", ADDRESS, "--cache-dir", "html-cache"], dir);
      expect(notApi.code).toBe(2);
      expect(notApi.stderr).toMatch(
        /is not this API: expected GET .*\/api\/v2\/collection\?perPage=1 to answer 200 with JSON/,
      );
      const missing = "0x0000000000000000000000000000000000000bad";
      const none = await runImport(["--from", live.base, "--collection", missing, "--cache-dir", "none-cache"], dir);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`no collection at ${missing}`);
    } finally {
      html.server.close();
      live.server.close();
    }
  });
});
