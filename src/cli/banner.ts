import { formatEther, type Address } from "viem";
import { LOW_BALANCE, MIN_BALANCE } from "../chain/node/wallet-gas.ts";
import { hasMinterRole } from "../chain/actions/minter-role.ts";
import type { ChainRead } from "../chain/registry.ts";
import { chainProfile, type ApiAccount } from "../core/config.ts";
import { itemKey } from "../indexer/models.ts";
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
    ...(sim.rpcUrls.size > 0
      ? ["             (--rpc-port <port> moves the JSON-RPC ports, --no-rpc serves none)"]
      : []),
    "",
    "  API keys (developer wallets):",
    ...(accounts.length > 0
      ? accounts.map(
          ({ apiKey, name, wallet }) =>
            `    ${apiKey.padEnd(20)} ${name.padEnd(10)} ${wallet}${poolNote(chains, wallet)}`,
        )
      : ["    none yet (POST /_sim/api-keys makes one; --keys gives each account of the keys one)"]),
    ...(await gasLines(sim, accounts)),
    "",
    ...(anyCollection(chains)
      ? tryRequests(sim.url, sample ?? { collection: anyCollection(chains)! })
      : tryFirstCollection(sim.url, chains[0]!.chain.chainId, accounts[0], state.controlOn)),
    "",
    "  Ctrl-C stops.",
  ];
  return lines.join("\n");
}

const anyCollection = (chains: ChainRead[]) => chains.flatMap(({ models }) => [...models.collections.keys()])[0];

/** A request to try per endpoint, each answering 200 as printed (a mint where a key of the world may mint). */
function tryRequests(url: string, { collection, chain, account }: Partial<MintSample> & { collection: Address }) {
  return [
    "  Try:",
    `    curl '${url}/api/v2/collection?perPage=5&sortBy=volume_all'`,
    `    curl '${url}/api/v2/collection/${collection}'`,
    ...(chain && account
      ? [
          `    curl '${url}/api/v2/item/events/${collection}/1'`,
          `    curl -X POST '${url}/api/v2/item/new?apiKey=${account.apiKey}' -H 'content-type: application/json' \\`,
          `      -d ` +
            `'{"collectionAddress":"${collection}","recipient":"${account.wallet}","chainId":${chain.chainId},"item":{"name":"Sword","initialSupply":10}}'`,
        ]
      : ["    (no API key may mint on the world's collections: POST /_sim/collections/<address>/minters grants one)"]),
  ];
}

/** A world with no collection to read or mint on: how to make the first one, as printed. */
function tryFirstCollection(url: string, chainId: number, owner: ApiAccount | undefined, controlOn: boolean): string[] {
  if (!controlOn)
    return ["  The world has no collection yet: with --admin-token, POST /_sim/collections makes one (see /docs)."];
  const create = (apiKey: string) =>
    `    curl -X POST '${url}/_sim/collections' -H 'content-type: application/json' \\\n` +
    `      -d '{"chainId":${chainId},"name":"My Items","owner":"${apiKey}"}'`;
  return owner
    ? [
        "  The world has no collection yet; make one (it answers its address, which a mint names; its owner mints):",
        create(owner.apiKey),
      ]
    : [
        "  The world has no collection and no API key yet; make a key, then a collection it owns (and mints on):",
        `    curl -X POST '${url}/_sim/api-keys' -H 'content-type: application/json' -d '{"name":"my-game"}'`,
        create("<the apiKey it answered>"),
      ];
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
  const file = node.contractsFile;
  const placed = !file
    ? `deployed at block ${node.deployedAt.block}`
    : file.attached
      ? `attached to the contracts ${file.path} records (deployed at block ${node.deployedAt.block}): nothing deployed or replayed`
      : `deployed at block ${node.deployedAt.block} and recorded in ${file.path}: the next instances attach to them`;
  return [
    `${head} node ${node.rpc.shown} (${node.capabilities.client}; ${wallets}${empty})`,
    `             ${where}`,
    `             ${placed}`,
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

type MintSample = NonNullable<Awaited<ReturnType<typeof mintSample>>>;

/**
 * A collection with an item, and an API key whose wallet holds its minter role, so that every sample request answers
 * 200: the world's first key wherever it mints (the README names it), else the first that mints anywhere.
 */
async function mintSample(chains: ChainRead[], accounts: ApiAccount[]) {
  for (const account of accounts) {
    for (const { chain, models } of chains) {
      for (const collection of models.collections.keys()) {
        if (!models.items.has(itemKey(collection, 1n))) continue;
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

/**
 * The banner's gas lines: on each node where the simulator signs (--keys), what each wallet that signs an API key's
 * writes holds (its pool's wallets too, as GET /_sim/state tells it), and a warning for each one that is low or dry.
 */
async function gasLines(sim: Simulator, accounts: ApiAccount[]): Promise<string[]> {
  const lines: string[] = [];
  let shown: number | undefined;
  for (const { chainId, account, wallets } of (await sim.control.gas()) ?? []) {
    const coin = chainProfile(chainId).nativeSymbol;
    if (chainId !== shown)
      lines.push(
        "",
        `  Gas on chain ${chainId} (each wallet that signs an API key's writes; low under ` +
          `${formatEther(LOW_BALANCE)} ${coin}, dry under ${formatEther(MIN_BALANCE)}):`,
      );
    shown = chainId;
    const { apiKey } = accounts.find(({ name }) => name === account)!;
    wallets.forEach(({ address, balance, level }, j) => {
      const held = balance === undefined ? "(the node did not say)" : `${balance} ${coin}`;
      const warning =
        level === "dry"
          ? "  DRY: fund it (its writes answer 503 WALLET_UNFUNDED)"
          : level === "low"
            ? "  LOW: fund it before it runs dry"
            : "";
      lines.push(`    ${(j === 0 ? apiKey : "").padEnd(20)} ${address}  ${held}${warning}`);
    });
  }
  return lines;
}
