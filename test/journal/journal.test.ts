import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  keccak256,
  type Address,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { addItem } from "../../src/chain/actions/add-item.ts";
import { ChainRevert } from "../../src/chain/revert.ts";
import { Journal, JOURNAL_FILE, JOURNAL_FORMAT } from "../../src/journal/journal.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { JournalFile } from "../../src/journal/journal-file.ts";
import { DEFAULT_OPTIONS, startBlockOf } from "../../src/core/config.ts";
import type { RequestProvider } from "../../src/chain/block-batcher.ts";
import type { ScenarioWorld } from "../../src/scenario/replay.ts";
import { chooseWorld, demoWorld } from "../../src/scenario/worlds.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  collectionsOn,
  DEMO_KEYS,
  demoAccount,
  mintItem,
  postJson,
  RPC_ON_FREE_PORTS,
  startTestSimulator,
} from "../harness.ts";
import { eventually, until } from "../eventually.ts";
import { readWorld } from "../world-reads.ts";
import { rpc } from "../rpc.ts";

// --state <dir>: every acknowledged change is journaled; a restart replays the world, then the
// journal, and ends byte-identical to before the stop (addresses, hashes, ids, read models).

const started: Simulator[] = [];
afterAll(() => Promise.all(started.map((sim) => sim.close())));

/** The demo world with uris that do not depend on the port, and a journal in `stateDir`. */
async function start(stateDir: string, mintTimeoutMs?: number): Promise<Simulator> {
  const sim = await startTestSimulator(demoWorld({ baseUrl: "http://sim.test" }), {
    stateDir,
    ...RPC_ON_FREE_PORTS,
    ...(mintTimeoutMs ? { mintTimeoutMs } : {}),
  });
  started.push(sim);
  await sim.live;
  return sim;
}

/**
 * Everything a client could tell apart: the read models, each head block's hash, every answer of the API (`readWorld`:
 * the list, each collection, each item's whole history and metadata), API keys.
 */
async function digest(sim: Simulator) {
  const chains = [];
  for (const { chain, models: read } of await sim.chains.read()) {
    const { version: _version, ...models } = read;
    const head = await chain.publicClient.getBlock({ blockTag: "latest" });
    chains.push({ chainId: chain.chainId, head: head.hash, models });
  }
  const { answers } = await readWorld(sim.url, { control: false });
  const accounts = sim.accounts.list().map(({ apiKey, name, wallet }) => ({ apiKey, name, wallet }));
  return { chains, answers, accounts };
}

/**
 * Each chain's blocks, hash and time: genesis and the next two, then every block from the last empty ones before the
 * world's start block to the head (the hash of each takes in its parent's: the blocks between are the same too).
 */
async function everyBlock(sim: Simulator) {
  const chains = [];
  for (const chain of sim.chains.all()) {
    const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    const numbers = [0, 1, 2];
    for (let number = startBlockOf({ chainId: chain.chainId }) - 2; number <= head; number++) numbers.push(number);
    const blocks = [];
    for (const number of numbers) {
      const { hash, timestamp } = await chain.publicClient.getBlock({ blockNumber: BigInt(number) });
      blocks.push({ number, hash, timestamp });
    }
    chains.push({ chainId: chain.chainId, blocks });
  }
  return chains;
}

/**
 * Runs `work` with every in-process chain held up `ms` before it mines its empty blocks up to the world's start (as a
 * loaded machine may hold it): the wall clock is past another second by then.
 */
async function slowBeforeMining<T>(provider: RequestProvider, ms: number, work: () => Promise<T>): Promise<T> {
  const prototype = Object.getPrototypeOf(provider) as RequestProvider;
  const request = prototype.request;
  prototype.request = async function (this: RequestProvider, args) {
    if (args.method === "hardhat_mine") await new Promise((resolve) => setTimeout(resolve, ms));
    return request.call(this, args);
  };
  try {
    return await work();
  } finally {
    prototype.request = request;
  }
}

function mintAt(sim: Simulator, collection: Address) {
  return mintItem(sim, { collection, chainId: 56, item: { name: "After", initialSupply: 1 } });
}

describe("a journal replayed on restart", () => {
  it("mints, control actions and JSON-RPC calls from outside come back byte-identical after a stop", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    const mint = (name: string, collection = bnb, chainId = 56, apiKey: string = DEMO_KEYS.studio) =>
      mintItem(sim, { collection, chainId, apiKey, item: { name, initialSupply: 3 } });

    expect((await mint("Before Snapshot")).status).toBe(200);
    const key = (await postJson(sim, "/_sim/api-keys", { name: "guild" })).body;
    const created = (
      await postJson(sim, "/_sim/collections", {
        chainId: 137,
        name: "Guild Banners",
        owner: key.apiKey,
        description: "from the control API",
      })
    ).body;
    expect((await mint("Banner", created.address, 137, key.apiKey)).status).toBe(200);
    await postJson(sim, "/_sim/time/advance", { seconds: 86_400 });
    const { id } = (await postJson(sim, "/_sim/snapshots", {})).body;
    expect((await mint("Reverted")).status).toBe(200);
    await postJson(sim, `/_sim/snapshots/${id}/revert`, {});
    const kept = await mint("After Revert");
    expect(kept.status).toBe(200);
    const studio = demoAccount(sim, "studio").wallet;
    const data = encodeFunctionData({
      abi: sim.chains.get(56)!.abis.collection,
      functionName: "safeTransferFrom",
      args: [studio, key.wallet, BigInt(kept.body.tokenIds[0]), 1n, "0x"],
    });
    const transfer = await rpc<string>(sim.rpcUrls.get(56)!, "eth_sendTransaction", [{ from: studio, to: bnb, data }]);
    await rpc(sim.rpcUrls.get(137)!, "evm_increaseTime", [3600]);
    await rpc(sim.rpcUrls.get(137)!, "evm_mine", []);

    const before = await digest(sim);
    await sim.close();
    const again = await start(dir);
    expect(again.restored?.replayed).toBeGreaterThan(10);
    expect(again.restored?.failedAgain).toBe(0);
    expect(await digest(again)).toEqual(before);
    // The kept mint, and the transfer sent from outside after it, are both in its history again.
    const events = (await call(again, `/api/v2/item/events/${bnb}/${kept.body.tokenIds[0]}`)).body.events as {
      transactionHash: string;
      to: string;
    }[];
    expect(events.map((e) => e.transactionHash)).toContain(kept.body.txHash);
    expect(events.find((e) => e.transactionHash === transfer)).toMatchObject({ to: key.wallet.toLowerCase() });

    // A reset clears the journal: the next start is the world as loaded.
    await postJson(again, "/_sim/reset", {});
    const reset = await digest(again);
    await again.close();
    const third = await start(dir);
    expect(third.restored?.replayed).toBe(0);
    expect(await digest(third)).toEqual(reset);
  });

  it("gives snapshot ids after a reset as a replay gives them: snapshot, reset, snapshot, revert, restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    expect((await postJson(sim, "/_sim/snapshots", {})).body).toEqual({ id: "1" });
    expect((await postJson(sim, "/_sim/reset", {})).status).toBe(200);
    const { id } = (await postJson(sim, "/_sim/snapshots", {})).body;
    expect(id).toBe("1");
    const reverted = await mintItem(sim, {
      collection: bnb,
      chainId: 56,
      item: { name: "Reverted", initialSupply: 1 },
    });
    expect(reverted.status).toBe(200);
    expect((await postJson(sim, `/_sim/snapshots/${id}/revert`, {})).status).toBe(200);
    const kept = await mintItem(sim, { collection: bnb, chainId: 56, item: { name: "Kept", initialSupply: 1 } });
    expect(kept.body.tokenIds).toEqual(reverted.body.tokenIds);
    const before = await digest(sim);
    await sim.close();

    const again = await start(dir);
    expect(await digest(again)).toEqual(before);
    // The snapshot is there under its id after the restart, and the next one follows it.
    expect((await postJson(again, `/_sim/snapshots/${id}/revert`, {})).status).toBe(200);
    expect((await call(again, `/api/v2/item/events/${bnb}/${kept.body.tokenIds[0]}`)).status).toBe(404);
    expect((await postJson(again, "/_sim/snapshots", {})).body).toEqual({ id: "2" });
  });

  it("refuses, with JOURNAL_REFUSED, a journal that reverts to a snapshot it never took", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    await (await start(dir)).close();
    appendFileSync(join(dir, JOURNAL_FILE), `${JSON.stringify({ t: "revert", id: "7" })}\n`);
    const refused = await start(dir).catch((error: unknown) => error);
    expect(refused).toMatchObject({ descriptor: START_ERRORS.JOURNAL_REFUSED });
    expect((refused as Error).message).toMatch(/snapshot '7', which it never took/);
  });

  it("records a write that reverted but was mined, so the restart has its block too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    const chain = sim.chains.get(56)!;
    const headBefore = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    // The guest's wallet holds no minter role; without a dry run the transaction is sent, reverts, and is mined.
    const guest = demoAccount(sim, "guest").wallet;
    const refused = addItem(chain, {
      from: guest,
      collection: bnb,
      to: guest,
      initialSupply: 1n,
      maxSupply: 1n,
      royaltyPerMille: 0n,
      metadata: "0x",
    });
    await expect(refused).rejects.toBeInstanceOf(ChainRevert);
    expect(await chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(headBefore + 1n);
    expect((await mintAt(sim, bnb)).status).toBe(200);
    const before = await digest(sim);
    await sim.close();

    const again = await start(dir);
    expect(again.restored?.failedAgain).toBe(1);
    expect(await digest(again)).toEqual(before);
  });

  it("journals an eth_sendRawTransaction signed with viem over the JSON-RPC port, and replays it to the same hash and block", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const url = sim.rpcUrls.get(56)!;
    const chain = defineChain({
      id: 56,
      name: "BNB Smart Chain (simulated)",
      nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const wallet = createWalletClient({
      account: privateKeyToAccount(demoAccount(sim, "arcade").walletKey),
      chain,
      transport: http(url),
    });
    const reader = createPublicClient({ chain, transport: http(url) });
    const hash = await wallet.sendTransaction({ to: "0x00000000000000000000000000000000000b0b01", value: 10n ** 15n });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(readFileSync(join(dir, JOURNAL_FILE), "utf8")).toMatch(/"method":"eth_sendRawTransaction"/);
    const before = await digest(sim);
    await sim.close();

    const again = await start(dir);
    expect(again.restored?.failedAgain).toBe(0);
    expect(await digest(again)).toEqual(before);
    const replayed = await again.chains.get(56)!.publicClient.getTransactionReceipt({ hash });
    expect({ block: replayed.blockHash, status: replayed.status }).toEqual({
      block: receipt.blockHash,
      status: "success",
    });
    expect(
      await again.chains.get(56)!.publicClient.getBalance({ address: "0x00000000000000000000000000000000000b0b01" }),
    ).toBe(10n ** 15n);
  });

  it("restarts on a journal whose last line was torn: warns, drops it, and serves everything before it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    const minted = await mintAt(sim, bnb);
    expect(minted.status).toBe(200);
    const before = await digest(sim);
    await sim.close();
    appendFileSync(join(dir, JOURNAL_FILE), '{"t":"tx","chainId":56,"from":"0x9b07418a910748a2b0d9');

    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    const again = await start(dir).finally(() => warn.mockRestore());
    expect(warnings).toEqual([
      expect.stringMatching(
        /journal\.jsonl: the last entry was cut off mid-write \(a crash\); it was never acknowledged and is dropped$/,
      ),
    ]);
    expect(await digest(again)).toEqual(before);
    const history = await call(again, `/api/v2/item/events/${bnb}/${minted.body.tokenIds[0]}`);
    expect(history.body.events.map((event: { transactionHash: string }) => event.transactionHash)).toEqual([
      minted.body.txHash,
    ]);
    expect(readFileSync(join(dir, JOURNAL_FILE), "utf8").endsWith("}\n")).toBe(true);
  });

  it("refuses a journal written on another world", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    writeFileSync(join(dir, JOURNAL_FILE), `${JSON.stringify({ t: "world", id: "some other world" })}\n`);
    await expect(start(dir)).rejects.toThrow(/journal of another world/);
  });
});

describe("a restart on a loaded machine", () => {
  it("makes every block as before the stop, however long its chains took to start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    expect((await mintAt(sim, bnb)).status).toBe(200);
    expect((await postJson(sim, "/_sim/time/advance", { seconds: 3600 })).status).toBe(200);
    const before = await everyBlock(sim);
    const provider = sim.chains.get(56)!.writer!.link.connection.provider;
    await sim.close();

    const again = await slowBeforeMining(provider, 1_100, () => start(dir));
    const after = await everyBlock(again);
    // The blocks before the world's are at genesis time, not at whenever the chain got to mine them.
    for (const { blocks } of after) expect(blocks[1]!.timestamp).toBe(blocks[0]!.timestamp);
    expect(after).toEqual(before);
  });
});

describe("an error answer to a write the journal recorded", () => {
  it("goes out only after the journal's fsync: a 504 MINT_PENDING whose transaction was recorded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await startTestSimulator(demoWorld({ baseUrl: "http://sim.test" }), {
      stateDir: dir,
      mintTimeoutMs: 500,
    });
    started.push(sim);
    const [collection] = (await collectionsOn(sim, 137)) as [Address];
    // How much of the journal each finished fsync covered.
    const synced: number[] = [];
    const sync = JournalFile.prototype.sync;
    JournalFile.prototype.sync = async function (this: JournalFile, ...args: Parameters<typeof sync>) {
      await sync.apply(this, args);
      synced.push(this.synced);
    };
    const chain = sim.chains.get(137)!;
    try {
      await chain.request("evm_setAutomine", [false], { record: false });
      const pending = await mintItem(sim, { collection, chainId: 137, item: { name: "Pending" } });
      const onDisk = statSync(join(dir, JOURNAL_FILE)).size;
      const written = Math.max(0, ...synced);
      expect(pending.status).toBe(504);
      expect(readFileSync(join(dir, JOURNAL_FILE), "utf8")).toContain('"t":"tx"');
      expect(written, "the answer came before the fsync of its journal entry").toBe(onDisk);
    } finally {
      JournalFile.prototype.sync = sync;
      await chain.request("evm_mine", [], { record: false });
      await chain.request("evm_setAutomine", [true], { record: false });
    }
  });
});

describe("a write answered 504 and mined later, then a restart", () => {
  it("comes back byte-identical: the same hash, the item complete with its metadata; a pending control write too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const sim = await start(dir, 500);
    const [bnb] = (await collectionsOn(sim, 56)) as [Address];
    const mint = (name: string) => mintItem(sim, { collection: bnb, chainId: 56, item: { name, initialSupply: 1 } });
    expect((await mint("Before The Stall")).status).toBe(200);
    // Stalled and mined over JSON-RPC, as a user does it: those calls are journaled too.
    await rpc(sim.rpcUrls.get(56)!, "evm_setAutomine", [false]);
    const pending = await mint("Pending");
    expect(pending.status).toBe(504);
    const created = await postJson(sim, "/_sim/collections", {
      chainId: 56,
      name: "Paused Two",
      owner: DEMO_KEYS.studio,
      description: "made while the chain stalled",
    });
    expect(created.status).toBe(504);
    await rpc(sim.rpcUrls.get(56)!, "evm_mine", []);
    await rpc(sim.rpcUrls.get(56)!, "evm_setAutomine", [true]);
    const items = async (on: Simulator) =>
      (await call(on, `/_sim/collections/${bnb}/items`)).body.items as { tokenId: string; name: string }[];
    const minted = await eventually(async () => {
      const found = (await items(sim)).find((item) => item.name === "Pending");
      if (!found) throw new Error("the mint answered 504 is not indexed yet");
      return found;
    });
    const history = async (on: Simulator) =>
      (await call(on, `/api/v2/item/events/${bnb}/${minted.tokenId}`)).body.events.map(
        (e: { transactionHash: string }) => e.transactionHash,
      );
    expect(await history(sim)).toContain(pending.body.txHash);
    const paused = async (on: Simulator) =>
      (await call(on, "/api/v2/collection?chainId=56&perPage=100")).body.collections.find(
        (c: { name: string }) => c.name === "Paused Two",
      );
    await until(
      "the collection made while the chain stalled",
      async () => (await paused(sim))?.description === "made while the chain stalled",
    );
    const before = {
      world: await digest(sim),
      history: await history(sim),
      items: await items(sim),
      paused: await paused(sim),
    };
    expect(before.paused).toMatchObject({ description: "made while the chain stalled" });
    await sim.close();
    // The journal holds the acknowledged transactions as signed: the replay does not depend on signing them again alike.
    const journaled = readFileSync(join(dir, JOURNAL_FILE), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.t === "tx" && entry.raw);
    expect(journaled.map((entry) => keccak256(entry.raw))).toEqual([pending.body.txHash, created.body.txHash]);

    const again = await start(dir, 500);
    expect(again.restored?.failedAgain).toBe(0);
    expect({
      world: await digest(again),
      history: await history(again),
      items: await items(again),
      paused: await paused(again),
    }).toEqual(before);
  });
});

describe("--wall-clock with --state", () => {
  it("keeps the world's now of the first start, so the next start replays onto the same world", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-state-"));
    const choose = () =>
      chooseWorld({ fixture: "demo", wallClock: true, chainsGiven: false }, { ...DEFAULT_OPTIONS, stateDir: dir })
        .world as ScenarioWorld;
    const before = Math.floor(Date.now() / 1000);
    const first = choose();
    expect(first.now).toBeGreaterThanOrEqual(before);
    expect(first.now).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    // An hour later by the wall clock, the next start still has the first start's now.
    vi.setSystemTime(Date.now() + 3_600_000);
    try {
      expect(choose().now).toBe(first.now);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the journal file", () => {
  const entry = (n: number) => ({ t: "time" as const, chainIds: [56], at: [n] });
  const lines = (dir: string) =>
    readFileSync(join(dir, JOURNAL_FILE), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));

  it("starts with its world, its format and its generation", () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-journal-"));
    Journal.open(dir, "w").journal.close();
    expect(lines(dir)).toEqual([
      { t: "world", id: "w", format: JOURNAL_FORMAT, generation: expect.stringMatching(/^[0-9a-f]{16}$/) },
    ]);
  });

  it("drops a torn last entry (a crash mid-write) with a warning and keeps every whole one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-journal-"));
    const { journal } = Journal.open(dir, "w");
    await journal.step(async (record) => record(entry(1)));
    await journal.step(async (record) => record(entry(2)));
    journal.close();
    appendFileSync(join(dir, JOURNAL_FILE), '{"t":"time","chainIds":[56],"at":[3');
    const reopened = Journal.open(dir, "w");
    expect(reopened.warning).toMatch(/cut off mid-write/);
    expect(reopened.journal.read()).toEqual([entry(1), entry(2)]);
    await reopened.journal.step(async (record) => record(entry(4)));
    reopened.journal.close();
    expect(lines(dir).slice(1)).toEqual([entry(1), entry(2), entry(4)]);
  });

  it("refuses a journal damaged in the middle", () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-journal-"));
    writeFileSync(
      join(dir, JOURNAL_FILE),
      `${JSON.stringify({ t: "world", id: "w" })}\nnot json\n${JSON.stringify(entry(1))}\n`,
    );
    const { journal } = Journal.open(dir, "w");
    expect(() => journal.read()).toThrow(/line 2 is not a journal entry, and more follow it/);
    journal.close();
  });

  it("refuses a journal a newer simulator wrote, saying what to do", () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-journal-"));
    writeFileSync(join(dir, JOURNAL_FILE), `${JSON.stringify({ t: "world", id: "w", format: JOURNAL_FORMAT + 1 })}\n`);
    expect(() => Journal.open(dir, "w")).toThrow(
      new RegExp(
        `written by a newer simulator \\(journal format ${JOURNAL_FORMAT + 1}; this one reads formats up to ${JOURNAL_FORMAT}\\): start it with that newer version`,
      ),
    );
  });

  it("reads a journal of the first format (no version in its first line)", () => {
    const dir = mkdtempSync(join(tmpdir(), "nft-sim-journal-"));
    writeFileSync(join(dir, JOURNAL_FILE), `${JSON.stringify({ t: "world", id: "w" })}\n${JSON.stringify(entry(1))}\n`);
    const { journal } = Journal.open(dir, "w");
    expect(journal.read()).toEqual([entry(1)]);
    journal.close();
  });
});
