import type { Address } from "viem";
import { hasMinterRole } from "../chain/actions/minter-role.ts";
import type { ChainRead } from "../chain/registry.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { chainProfile, type ApiAccount } from "../core/config.ts";
import { itemKey } from "../indexer/models.ts";
import { gasLines } from "./gas-lines.ts";
import type { Simulator } from "../simulator/simulator.ts";

/** What a developer needs on start-up: where things are, which keys to use, and a request to try per endpoint. */
export async function banner(
  sim: Simulator,
  times: { readyInMs: number; chainsInMs?: number },
  clock: string,
  state: { controlOn: boolean; stateDir?: string; cacheDir?: string },
): Promise<string> {
  const chains = await sim.chains.read();
  const accounts = sim.accounts.list();
  const sample = await mintSample(chains, accounts);
  const first = sample?.chain ?? chains[0]!.chain;
  const collection = sample?.collection ?? [...chains[0]!.models.collections.keys()][0] ?? "<collection address>";
  const minter = sample?.account ?? accounts[0];
  const lines = [
    `NFT service simulator ready in ${(times.readyInMs / 1000).toFixed(1)} s` +
      (times.chainsInMs
        ? ` (answering from the ${sim.load.source === "state" ? "journal's checkpoint" : "cached world"}; the chains held it after ${(times.chainsInMs / 1000).toFixed(1)} s)`
        : ""),
    "",
    `  API        ${sim.url}/api/v2`,
    `  dashboard  ${sim.url}/`,
    `  API docs   ${sim.url}/docs  (the OpenAPI document is ${sim.url}/openapi.json)`,
    `  clock      ${clock}`,
    `  control    ${state.controlOn ? `${sim.url}/_sim  (time, snapshots, reset, collections, API keys, faults, request log; see /docs)` : "off (not on loopback; set --admin-token to turn it on)"}`,
    `  cache      ${state.cacheDir ? `${state.cacheDir} (the next start answers from it at once; --no-cache to replay first)` : "off"}`,
    `  state      ${state.stateDir ? stateLine(sim, state.stateDir) : "not kept (--state <dir> keeps every change across restarts)"}`,
    ...chains.flatMap((read) => chainLines(read, sim.rpcUrls.get(read.chain.chainId))),
    "",
    "  API keys (developer wallets):",
    ...accounts.map(
      ({ apiKey, name, wallet }) => `    ${apiKey.padEnd(20)} ${name.padEnd(10)} ${wallet}${poolNote(chains, wallet)}`,
    ),
    ...(await gasLines(
      chains.map(({ chain }) => chain),
      accounts,
    )),
    "",
    "  Try:",
    `    curl '${sim.url}/api/v2/collection?perPage=5&sortBy=volume_all'`,
    `    curl '${sim.url}/api/v2/collection/${collection}'`,
    `    curl '${sim.url}/api/v2/item/events/${collection}/1'`,
    `    curl -X POST '${sim.url}/api/v2/item/new?apiKey=${minter?.apiKey ?? "<key>"}' -H 'content-type: ` +
      `application/json' \\`,
    `      -d ` +
      `'{"collectionAddress":"${collection}","recipient":"${minter?.wallet ?? "0x…"}","chainId":${first.chainId},"item":{"name":"Sword","initialSupply":10}}'`,
    "",
    "  Ctrl-C stops.",
  ];
  return lines.join("\n");
}

/**
 * Where a chain is (a port of the simulator, or a node it did not start) and its contracts; a node's chain that the
 * world left empty says so.
 */
function chainLines({ chain, models }: ChainRead, rpcUrl: string | undefined): string[] {
  const { chainId, contracts, node } = chain;
  const head = `  chain ${String(chainId).padEnd(4)} ${chainProfile(chainId).name}:`;
  const where = `marketplace ${contracts.marketplace}  stablecoin ${contracts.stablecoin}`;
  if (!node) return [`${head} ${rpcUrl ?? "(no JSON-RPC)"}  ${where}`];
  const wallets = node.writer.signs
    ? `signs with ${node.writer.signers().length} wallets of the given keys`
    : "impersonates the world's wallets";
  const empty = models.collections.size === 0 ? "; no collections of the world on it" : "";
  return [
    `${head} node ${node.rpc.shown} (${node.capabilities.client}; ${wallets}${empty})`,
    `             ${where}  from block ${node.deployedAt.block}`,
  ];
}

/** Where a developer wallet's mints are signed by a pool of wallets (--keys gave it several), how many. */
function poolNote(chains: ChainRead[], wallet: Address): string {
  const pooled = chains.flatMap(({ chain }) => {
    const size = chain.node?.writer.poolOf(wallet).length ?? 1;
    return size > 1 ? [`${size} on chain ${chain.chainId}`] : [];
  });
  return pooled.length > 0 ? `  (its mints signed by a pool of wallets: ${pooled.join(", ")})` : "";
}

/**
 * A collection with an item, and an API key whose wallet holds its minter role, so that every sample request answers
 * 200.
 */
async function mintSample(
  chains: ChainRead[],
  accounts: ApiAccount[],
): Promise<{ chain: SimChain; collection: Address; account: ApiAccount } | undefined> {
  for (const { chain, models } of chains) {
    for (const collection of models.collections.keys()) {
      if (!models.items.has(itemKey(collection, 1n))) continue;
      for (const account of accounts) {
        if (await hasMinterRole(chain, { collection, wallet: account.wallet })) return { chain, collection, account };
      }
    }
  }
  return undefined;
}

/** Where the journal is and what it replayed; and, loudly, when its disk refuses writes. */
function stateLine(sim: Simulator, dir: string): string {
  const line = `${dir} (journal: ${sim.restored?.replayed ?? 0} changes replayed)`;
  const journal = sim.control.state().journal;
  if (!journal || journal.writable) return line;
  return (
    `${line}\n             NOT WRITABLE since ${journal.since} (${journal.reason}): ` +
    "writes answer 507 STORAGE_FULL until it can be written, reads still answer"
  );
}
