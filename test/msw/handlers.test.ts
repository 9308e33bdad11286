import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadModels } from "../../src/indexer/models.ts";
import { foldWorld, WORLD_FILE, type WorldFile } from "../../src/msw/world-file.ts";
import { createHandlers, DEFAULT_SNAPSHOTS, type SnapshotIndex } from "../../src/msw/index.ts";
import { COLLECTION_FIELDS } from "../../src/schemas/collection.ts";
import { pathOf, SERVED_OPERATIONS, type Operation } from "../../src/schemas/operations.ts";
import { DEFAULT_WORLD_FILE, fixtureWorld, SNAPSHOT_BASE_URL } from "../../src/scenario/worlds.ts";
import { startSimulator, type Simulator } from "../../src/simulator/simulator.ts";
import { mintItem } from "../harness.ts";

// The mock answers on an origin of its own; everything else reaches the real simulator.
const MOCK = "http://mock.example";
const index = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, "index.json"), "utf8")) as SnapshotIndex;
const mock = setupServer(...createHandlers({ baseUrl: MOCK }));
let sim: Simulator;

beforeAll(async () => {
  // As the snapshots were taken: the default world, collection uris on the snapshot base URL.
  sim = await startSimulator(fixtureWorld(DEFAULT_WORLD_FILE, { baseUrl: SNAPSHOT_BASE_URL }), {
    port: 0,
    serveRpc: false,
  });
  mock.listen({ onUnhandledRequest: "bypass" });
});

afterAll(async () => {
  mock.close();
  await sim?.close();
});

async function both(
  url: string,
  init?: RequestInit,
): Promise<{ real: [number, string]; mocked: [number, string]; type: string | null; realType: string | null }> {
  const [real, mocked] = await Promise.all([fetch(`${sim.url}${url}`, init), fetch(`${MOCK}${url}`, init)]);
  // An image's bytes, compared as base64.
  const body = async (response: Response) =>
    url.startsWith("/images/") ? Buffer.from(await response.arrayBuffer()).toString("base64") : response.text();
  return {
    real: [real.status, await body(real)],
    mocked: [mocked.status, await body(mocked)],
    type: mocked.headers.get("content-type"),
    realType: real.headers.get("content-type"),
  };
}

async function expectSame(urls: string[], init?: () => RequestInit): Promise<void> {
  for (const url of urls) {
    const { real, mocked, type, realType } = await both(url, init?.());
    expect(mocked, `${init?.().method ?? "GET"} ${url}`).toEqual(real);
    expect(type).toBe(url.startsWith("/images/") ? "image/png" : "application/json; charset=utf-8");
    expect(type).toBe(realType);
  }
}

describe("MSW handlers answer as the simulator does, byte for byte", () => {
  it(`for every snapshotted request (${index.responses.length})`, async () => {
    await expectSame(index.responses.map(({ url }) => url));
  });

  it("for every operation of the route table: each is answered by the handlers, none left to the network", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string; chainId: number; slug: string }[];
    const samples: Record<string, string | number> = { ...first!, tokenId: 1, seed: "walk" };
    const mocked = new Set<string>();
    const seen = ({ request }: { request: Request }) => void mocked.add(`${request.method} ${request.url}`);
    mock.events.on("response:mocked", seen);
    try {
      for (const operation of SERVED_OPERATIONS as readonly Operation[]) {
        const params = Object.fromEntries(
          Object.keys(operation.params?.properties ?? {}).map((name) => {
            if (samples[name] === undefined) throw new Error(`${operation.operationId}: no sample for ${name}`);
            return [name, samples[name]!];
          }),
        );
        const query = (operation.authQuery ?? []).map((name) => `${name}=demo-studio-key`).join("&");
        const url = `${pathOf(operation, params)}${query ? `?${query}` : ""}`;
        // A write the simulator refuses (a chain it does not serve), so that its world stays the snapshots'.
        const init =
          operation.method === "get"
            ? undefined
            : { method: operation.method.toUpperCase(), headers: { "content-type": "application/json" }, body: "{}" };
        const { real, mocked: answered } = await both(url, init);
        expect(answered, `${operation.operationId}: ${url}`).toEqual(real);
        expect(mocked, operation.operationId).toContain(`${init?.method ?? "GET"} ${MOCK}${url}`);
      }
    } finally {
      mock.events.removeListener("response:mocked", seen);
    }
  });

  it("for list pages, sorts and filters no snapshot holds", async () => {
    const urls: string[] = [];
    for (const sortBy of COLLECTION_FIELDS) {
      for (const sortDir of ["asc", "desc"])
        urls.push(`/api/v2/collection?sortBy=${sortBy}&sortDir=${sortDir}&perPage=7&page=2`);
    }
    urls.push(
      "/api/v2/collection",
      "/api/v2/collection?perPage=100",
      "/api/v2/collection?perPage=5&page=8",
      "/api/v2/collection?page=99",
      "/api/v2/collection?genre=Gaming&chainId=137&sortBy=holders&sortDir=asc",
      "/api/v2/collection?isVerified=true&perPage=3",
      "/api/v2/collection?chainId=56&isVerified=false",
      "/api/v2/collection?apiKey=anything&perPage=2",
    );
    const { body } = await fetch(`${sim.url}/api/v2/collection?perPage=3`).then(async (r) => ({
      body: (await r.json()) as {
        collections: { address: string; ownerAddress: string; name: string; slug: string }[];
      },
    }));
    for (const { address, ownerAddress, name, slug } of body.collections) {
      urls.push(
        `/api/v2/collection?address=${address.toUpperCase().replace("0X", "0x")}`,
        `/api/v2/collection?ownerAddress=${ownerAddress}`,
        `/api/v2/collection?name=${encodeURIComponent(name)}`,
        `/api/v2/collection?slug=${slug}`,
      );
      urls.push(
        `/api/v2/collection/${address.toUpperCase().replace("0X", "0x")}`,
        `/api/v2/collection/${address}?chainId=1`,
      );
      urls.push(
        `/api/v2/item/events/${address}/1?perPage=3&page=2`,
        `/api/v2/item/events/${address}/1?perPage=100`,
        `/api/v2/item/events/${address}/2?page=50`,
        `/api/v2/item/events/${address}/1?chainId=1`,
      );
    }
    await expectSame(urls);
  });

  it("for the error bodies of bad input", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1`).then((r) => r.json())).collections as {
      address: string;
    }[];
    await expectSame([
      "/api/v2/collection?perPage=0",
      "/api/v2/collection?perPage=101&page=0",
      "/api/v2/collection?sortBy=price&sortDir=up",
      "/api/v2/collection?unknown=1",
      "/api/v2/collection?chainId=abc",
      "/api/v2/collection?page=1&page=2",
      "/api/v2/collection?isVerified=maybe",
      "/api/v2/collection/0x123",
      "/api/v2/collection/not-an-address?chainId=0",
      `/api/v2/collection/${first!.address}?extra=1`,
      `/api/v2/item/events/${first!.address}/abc`,
      `/api/v2/item/events/${first!.address}/-1`,
      `/api/v2/item/events/${first!.address}/1?perPage=1000`,
      `/api/v2/item/events/0x${"0".repeat(40)}/1`,
      "/api/v2/no-such-route",
      "/metadata/56/no-such-slug/1",
      "/metadata/5/any/1",
      "/metadata/56/any/x",
    ]);
  });

  it("for a method a path does not take: 405 with the same Allow", async () => {
    for (const [method, path] of [
      ["DELETE", "/api/v2/collection"],
      ["GET", "/api/v2/item/new"],
      ["PUT", "/metadata/56/any/1"],
    ] as const) {
      const [real, mocked] = await Promise.all([
        fetch(`${sim.url}${path}`, { method }),
        fetch(`${MOCK}${path}`, { method }),
      ]);
      expect([mocked.status, mocked.headers.get("allow")], `${method} ${path}`).toEqual([
        405,
        real.headers.get("allow"),
      ]);
      expect(real.headers.get("allow")).toMatch(/GET|POST/);
      expect(await mocked.text()).toBe(await real.text());
    }
  });

  it("for mint requests the simulator refuses before any chain call", async () => {
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string }[];
    const post =
      (body: string, type = "application/json") =>
      () => ({ method: "POST", headers: { "content-type": type }, body });
    const valid = {
      collectionAddress: first!.address,
      recipient: `0x${"1".repeat(40)}`,
      chainId: 56,
      item: { name: "Sword", initialSupply: 1 },
    };
    await expectSame(["/api/v2/item/new"], post(JSON.stringify(valid)));
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(JSON.stringify({ ...valid, chainId: 999 })));
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(JSON.stringify({ ...valid, chainId: 137 })));
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, collectionAddress: `0x${"2".repeat(40)}` })),
    );
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, item: { name: "", initialSupply: 0, extra: true } })),
    );
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, item: { name: "A", initialSupply: 5, isStackable: false, maximumSupply: 2 } })),
    );
    // Metadata too large to go on chain, within the body's size limit: the same encoding decides it (413).
    const properties = Array.from({ length: 20 }, (_, i) => ({ name: `p${i}`, value: "v".repeat(1000), static: true }));
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify({ ...valid, item: { ...valid.item, description: "d".repeat(5000), properties } })),
    );
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("name=Sword", "text/plain"));
    // A JSON media type the body parser reads but the mint does not take (415), and one it reads not at all.
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(JSON.stringify(valid), "application/vnd.api+json"),
    );
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("{bad", "application/vnd.api+json"));
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("{bad", "application/other+json"));
    await expectSame(["/api/v2/item/new"], post("{bad"));
    await expectSame(
      ["/api/v2/item/new?apiKey=demo-studio-key"],
      post(
        new URLSearchParams({ ...valid, chainId: "56", item: "{not json" }).toString(),
        "application/x-www-form-urlencoded",
      ),
    );
    await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post("{}"));
    for (const bad of ["not json", "null", "5", '"text"', "  ", "{bad", "[1,", ""])
      await expectSame(["/api/v2/item/new?apiKey=demo-studio-key"], post(bad));
    await expectSame(["/api/v2/collection", `/api/v2/item/events/${first!.address}/1`], post("{}"));
  });

  it("mocks a valid mint: new token ids after the last one, whose history starts with the mint", async () => {
    const handlers = createHandlers({ baseUrl: "http://other.example" });
    mock.use(...handlers);
    const [first] = (await fetch(`${sim.url}/api/v2/collection?perPage=1&chainId=56`).then((r) => r.json()))
      .collections as { address: string }[];
    const recipient = `0x${"1".repeat(40)}`;
    const minted = await mintItem(
      { url: "http://other.example" },
      {
        collection: first!.address,
        chainId: 56,
        recipient,
        item: { name: "Sword", initialSupply: 3, isStackable: false },
      },
    );
    expect(minted.status).toBe(200);
    const { tokenIds, item } = minted.body as { tokenIds: number[]; item: { maximumSupply: number } };
    expect(tokenIds).toHaveLength(3);
    expect(item.maximumSupply).toBe(3);
    const events = await fetch(`http://other.example/api/v2/item/events/${first!.address}/${tokenIds[0]}`).then((r) =>
      r.json(),
    );
    expect(events.events).toMatchObject([
      { event: "TransferBatch", from: `0x${"0".repeat(40)}`, to: recipient, tokenId: tokenIds[0] },
    ]);
    // The default handlers' world is untouched.
    const before = await fetch(`${MOCK}/api/v2/item/events/${first!.address}/${tokenIds[0]}`);
    expect(before.status).toBe(404);
    mock.resetHandlers();
  });
});

describe("MSW handlers hold the simulator's world, and after a mint answer as it does but for what only a chain can say", () => {
  it("fold the world file into the simulator's own read models, by the same reducers", async () => {
    const world = JSON.parse(readFileSync(join(DEFAULT_SNAPSHOTS, WORLD_FILE), "utf8")) as WorldFile;
    const folded = foldWorld(world);
    const served = (await sim.chains.read()).map(({ models }) => models);
    expect(folded.map(({ facts }) => facts.chainId)).toEqual(served.map(({ facts }) => facts.chainId));
    // Everything but the version, which counts the folds each went through.
    const same = (models: ReadModels) => ({ ...models, version: 0 });
    expect(folded.map(same)).toEqual(served.map(same));
    expect(folded.reduce((sum, { collections }) => sum + collections.size, 0)).toBe(35);
  });

  it("the same requests (reads, mints, reads): the same bodies but for transaction hashes, times each on its own world clock", async () => {
    const PARITY = "http://parity.example";
    mock.use(...createHandlers({ baseUrl: PARITY }));
    const studio = sim.accounts.byApiKey("demo-studio-key")!.wallet;
    const [{ address, uri }] = (
      await fetch(`${sim.url}/api/v2/collection?chainId=56&ownerAddress=${studio}&perPage=1`).then((r) => r.json())
    ).collections as { address: string; uri: string }[];
    const recipient = `0x${"ab".repeat(20)}`;
    const mint = (item: Record<string, unknown>) => ({
      method: "POST",
      path: "/api/v2/item/new?apiKey=demo-studio-key",
      body: JSON.stringify({ collectionAddress: address, recipient, chainId: 56, item }),
    });
    const reads = (tokenIds: number[]) => [
      `/api/v2/collection/${address}`,
      "/api/v2/collection?chainId=56&sortBy=holders&sortDir=desc&perPage=100",
      `/api/v2/item/events/${address}/1?perPage=5`,
      ...tokenIds.flatMap((tokenId) => [
        `/api/v2/item/events/${address}/${tokenId}`,
        `${new URL(uri).pathname}/${tokenId}`,
      ]),
    ];
    const send = async (base: string, request: string | { method: string; path: string; body: string }) => {
      const { method, path, body } =
        typeof request === "string" ? { method: "GET", path: request, body: undefined } : request;
      const response = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json" }, body });
      return { status: response.status, body: await response.json() };
    };
    const next = (await fetch(`${sim.url}/_sim/collections/${address}/items`).then((r) => r.json())).items.length + 1;
    const sequence = [
      ...reads([next]),
      mint({ name: "Parity Shield", initialSupply: 3, maximumSupply: 10, royaltyFee: 25 }),
      mint({
        name: "Parity Card",
        isStackable: false,
        initialSupply: 2,
        properties: [{ name: "rank", value: "A", static: true }],
      }),
      mint({ name: "Parity Shield II", initialSupply: 1 }),
      ...reads([next, next + 1, next + 2, next + 3]),
    ];
    const real: { status: number; body: any }[] = [];
    const mocked: { status: number; body: any }[] = [];
    for (const request of sequence) {
      real.push(await send(sim.url, request));
      mocked.push(await send(PARITY, request));
    }
    // A transaction's hash covers its sender's nonce and signature on a chain the mock does not run, so the mock makes
    // one up: each mint's is put in place of the other's. Each world's clock runs on from its head at its own pace: in
    // each, the mints come after the head, in the order they were sent, the chain's no later than its latest block;
    // then their times are put in place of the other's.
    const hashes = new Map<string, string>();
    real.forEach((answer, i) => {
      if (answer.body.txHash) hashes.set(mocked[i]!.body.txHash, answer.body.txHash);
    });
    const head = index.heads!.find((found) => found.chainId === 56)!;
    const minted = (
      answers: { body: { events?: { transactionHash: string; timestamp: number; blockNumber: number }[] } }[],
      own: Set<string>,
    ) => answers.flatMap((answer) => answer.body.events ?? []).filter((event) => own.has(event.transactionHash));
    const realMints = minted(real, new Set(hashes.values()));
    const mockMints = minted(mocked, new Set(hashes.keys()));
    expect(realMints).toHaveLength(mockMints.length);
    expect(new Set(realMints.map((event) => event.blockNumber))).toEqual(
      new Set([head.blockNumber + 1, head.blockNumber + 2, head.blockNumber + 3]),
    );
    const inMintOrder = (events: { transactionHash: string; timestamp: number }[], order: string[]) =>
      [...new Map(events.map((event) => [event.transactionHash, event.timestamp])).entries()]
        .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
        .map(([, timestamp]) => timestamp);
    const latest = Number((await sim.chains.get(56)!.publicClient.getBlock()).timestamp);
    for (const times of [inMintOrder(realMints, [...hashes.values()]), inMintOrder(mockMints, [...hashes.keys()])]) {
      expect(times).toHaveLength(3);
      expect(times[0]).toBeGreaterThanOrEqual(head.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    for (const event of realMints) expect(event.timestamp).toBeLessThanOrEqual(latest);
    // Each mint's event takes the time of the real mint's block (matched by its transaction, not by its time: two
    // mints a clock put in one second the other may put in two).
    const realTimes = new Map(realMints.map((event) => [event.transactionHash, event.timestamp]));
    const aligned = JSON.parse(JSON.stringify(mocked), (key, value) => {
      if (key === "txHash" || key === "transactionHash") return hashes.get(value) ?? value;
      const time = realTimes.get(value?.transactionHash);
      return time === undefined ? value : { ...value, timestamp: time };
    });
    // Before the mints the new token is unknown to both (404); after them each new token's history and metadata answer.
    expect(real.slice(-8).map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(aligned).toEqual(real);
    mock.resetHandlers();
  });
});
