import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import type { Address } from "viem";
import type { ApiAccount } from "../src/core/config.ts";
import { JOURNAL_FILE } from "../src/journal/journal.ts";
import { demoWorld } from "../src/scenario/worlds.ts";
import { startSimulator, type Simulator, type World } from "../src/simulator/simulator.ts";
import type { SimulatorOptions } from "../src/core/config.ts";

/** The demo world's API keys (fixtures/demo-world.json), by account name. */
export const DEMO_KEYS = { studio: "demo-studio-key", arcade: "demo-arcade-key", guest: "demo-guest-key" } as const;

/** A simulator for one test file: on a free port, without JSON-RPC unless asked, with the demo world unless another is given. */
export function startTestSimulator(
  world: World = demoWorld(),
  options: Partial<SimulatorOptions> = {},
): Promise<Simulator> {
  return startSimulator(world, { port: 0, serveRpc: false, ...options });
}

/** Options that serve both chains' JSON-RPC ports, each on a free port. */
export const RPC_ON_FREE_PORTS = {
  serveRpc: true,
  chains: [
    { chainId: 56, rpcPort: 0 },
    { chainId: 137, rpcPort: 0 },
  ],
} satisfies Partial<SimulatorOptions>;

/** A simulator with the demo world (fixtures/demo-world.json replayed) on a free port, for one test file. */
export function startDemo(): Promise<Simulator> {
  return startTestSimulator();
}

/** A demo account as the running simulator holds it: its API key and developer wallet. */
export function demoAccount(sim: Pick<Simulator, "accounts">, name: keyof typeof DEMO_KEYS): ApiAccount {
  const account = sim.accounts.byApiKey(DEMO_KEYS[name]);
  if (!account)
    throw new Error(`the simulator has no account with API key ${DEMO_KEYS[name]}: is it running the demo world?`);
  return account;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A real HTTP request; the body is parsed as JSON (every answer of the API is JSON). */
export async function call<T = any>(
  sim: Pick<Simulator, "url">,
  path: string,
  init: RequestInit = {},
): Promise<Answer<T>> {
  const response = await fetch(`${sim.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export function postJson(sim: Simulator, path: string, body: unknown): Promise<Answer> {
  return call(sim, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The collections of one chain, as the API lists them. */
export async function collectionsOn(sim: Simulator, chainId: number): Promise<Address[]> {
  const { body } = await call(sim, `/api/v2/collection?chainId=${chainId}&perPage=100`);
  return body.collections.map((c: { address: Address }) => c.address);
}

/** The item a test mints unless it says otherwise. */
const TEST_ITEM = { name: "Test Sword", initialSupply: 5 };

/** A mint request body for the demo world; the recipient is the studio's wallet. */
export function mintBody(
  sim: Pick<Simulator, "accounts">,
  collectionAddress: string,
  chainId: number,
  item: Record<string, unknown> = {},
) {
  return {
    collectionAddress,
    recipient: demoAccount(sim, "studio").wallet,
    chainId,
    item: { ...TEST_ITEM, ...item },
  };
}

/** What `mintItem` mints: in `collection` on `chainId`; `item` fields over mintBody's, with `apiKey` (the studio's). */
export interface MintAsked {
  collection: string;
  chainId: number;
  item?: Record<string, unknown>;
  apiKey?: string;
  /** Whose wallet gets it: the demo studio's by default, so a simulator of another world must name one. */
  recipient?: string;
  /** More of the request: a signal to give up waiting, headers of its own. */
  init?: { signal?: AbortSignal; headers?: Record<string, string> };
}

/**
 * Where `mintItem` sends: a simulator in the test's process, the package's (`startSimulator()`, its accounts a list),
 * or any running one by its URL alone (a simulator process), which has no accounts to find the demo studio's wallet in.
 */
export interface MintTarget {
  url: string;
  accounts?: Simulator["accounts"] | readonly ApiAccount[];
}

/** The demo studio's wallet, where the target holds the demo world's accounts. */
function studioWallet({ accounts }: MintTarget): string | undefined {
  const studio = Array.isArray(accounts)
    ? accounts.find((account) => account.apiKey === DEMO_KEYS.studio)
    : (accounts as Simulator["accounts"] | undefined)?.byApiKey(DEMO_KEYS.studio);
  return studio?.wallet;
}

/** The tests' one mint: POST /api/v2/item/new as a client sends it, answered as `call` answers. */
export function mintItem(
  sim: MintTarget,
  { collection, chainId, item = {}, apiKey = DEMO_KEYS.studio, recipient, init = {} }: MintAsked,
): Promise<Answer> {
  const to = recipient ?? studioWallet(sim);
  if (!to) throw new Error(`mintItem on ${sim.url} needs a recipient: the demo studio is not among its accounts`);
  const body = { collectionAddress: collection, recipient: to, chainId, item: { ...TEST_ITEM, ...item } };
  return call(sim, `/api/v2/item/new?apiKey=${apiKey}`, {
    method: "POST",
    signal: init.signal,
    headers: { "content-type": "application/json", ...init.headers },
    body: JSON.stringify(body),
  });
}

/** Latest block of each chain: unchanged numbers prove a refused request wrote nothing. */
export async function chainHeads(sim: Simulator): Promise<Record<number, bigint>> {
  const heads: Record<number, bigint> = {};
  for (const { chainId, publicClient } of sim.chains.all())
    heads[chainId] = await publicClient.getBlockNumber({ cacheTime: 0 });
  return heads;
}

/** The error body every failure carries. */
export function expectErrorBody(body: any, code: string): void {
  if (typeof body?.error !== "string" || typeof body.message !== "string" || !Array.isArray(body.errors)) {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  if (body.error !== code) throw new Error(`expected error ${code}, got ${body.error}: ${JSON.stringify(body)}`);
  if (body.errors.length === 0 || body.errors.some((line: unknown) => typeof line !== "string")) {
    throw new Error(`errors must be a non-empty list of strings: ${JSON.stringify(body.errors)}`);
  }
}

/** A request through node:http, which (unlike fetch) sends any Host header it is given. */
export function sendRaw(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          headers: new Headers(res.headers as Record<string, string>),
          body: text ? JSON.parse(text) : undefined,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The lines of a --state journal, in order. */
export function journalLines(dir: string): any[] {
  return readFileSync(join(dir, JOURNAL_FILE), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** Every transaction a --state journal holds (in blocks, and left in the pool), each with the index of its line. */
export function journaledTransactions(dir: string): { line: number; to: string; from: string; data: string }[] {
  return journalLines(dir).flatMap((entry, line) =>
    entry.t === "block" ? entry.txs.map((tx: any) => ({ ...tx, line })) : entry.t === "tx" ? [{ ...entry, line }] : [],
  );
}
