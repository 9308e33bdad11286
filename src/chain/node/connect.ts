import { createPublicClient, custom, defineChain, type Address, type Hex } from "viem";
import { chainProfile, type GivenKeys } from "../../core/config.ts";
import { ApiError, isStartError, oneLine, START_ERRORS } from "../../core/errors.ts";
import { indexedEventsAbi, chainLogSource } from "../../indexer/log-source.ts";
import { ChainIndexer } from "../../indexer/indexer.ts";
import type { Abis } from "../../core/abi.ts";
import { chainFacts, placeMarketplace } from "../deploy.ts";
import { addressOf, deployerKey } from "../../core/keys.ts";
import type { ChainLink, PublicClient } from "../network.ts";
import { ChainWriter } from "../chain-writer.ts";
import { SimChain } from "../sim-chain.ts";
import { heightPassed, mineUntilNext } from "../height.ts";
import { nodeRefused, probeCapabilities } from "./capabilities.ts";
import type { ContractsFile, RecordedChain } from "./contracts-file.ts";
import { deployOnNode } from "./deploy.ts";
import { attachTo, checkFunded, openWallets } from "./node-accounts.ts";
import { NodeRpc } from "./rpc.ts";
import { NodeWriter } from "./writer.ts";

// Public nodes and providers cap the blocks of one eth_getLogs (commonly 1,000 to 10,000); a node
// that refuses even this many is asked in halves from then on.
const NODE_LOG_RANGE = 2_000;

export interface NodeOptions {
  abis: Abis;
  /** Keys of every wallet the world sends from (its API wallets and actors). */
  walletKeys: Hex[];
  /** The wallets the world sends from without a key (accounts at live addresses): sent as by impersonation. */
  impersonated?: Address[];
  /** A timed world begins here: the node must be able to set block times, and not be past this yet. */
  genesisTime?: Date;
  /** The chains the world writes to (a node's chain it leaves alone needs neither); default every chain. */
  worldChains?: ReadonlySet<number>;
  /** Sign locally with these (the world's wallets came from them too); without, impersonate and fund on a dev node. */
  given?: GivenKeys;
  /** Contracts recorded by an earlier run: attach to them instead of deploying. */
  contracts?: ContractsFile;
  /** The heights the world names for its chains: a node's chain is mined up to it first, refused if already past. */
  startBlocks?: ReadonlyMap<number, number>;
  /** Where the world has each chain's marketplace (a live one's address), where it names one: placed there on a dev node. */
  marketplaces?: ReadonlyMap<number, Address>;
}

/**
 * A node's chain, ready for the world: the core contracts deployed (or attached to, `attached` then says what was
 * recorded).
 */
export interface ConnectedNode {
  chain: SimChain;
  attached?: RecordedChain;
}

/**
 * Connects to a node the simulator did not start (anvil, a Hardhat node, a testnet): reads its
 * chain id, probes what it allows, makes the world's wallets able to send (signing with the
 * given keys after checking they are funded, or impersonating and funding them on a dev node),
 * then attaches to recorded contracts or deploys new ones. Refuses with NODE_REFUSED what it
 * cannot do right.
 */
export async function connectNode(url: string, options: NodeOptions): Promise<ConnectedNode> {
  const rpc = new NodeRpc(url);
  const chainId = Number(
    await rpc.request("eth_chainId").catch((error: unknown) => {
      throw nodeRefused(
        error instanceof ApiError
          ? `--rpc-url: ${oneLine(error)}`
          : `--rpc-url ${rpc.shown}: not a JSON-RPC node (${(error as Error).message})`,
      );
    }),
  );
  const capabilities = await probeCapabilities(rpc);
  const recorded = options.contracts?.chain(chainId);
  const deployer = options.given ? options.given.deployer : deployerKey(chainId);
  // Each pool's other wallets sign too (an account given several keys: its API key's mints).
  const pools = [...(options.given?.pools?.values() ?? [])];
  const poolKeys = pools.flatMap((pool) => pool.slice(1));
  const keys = options.given && [...(deployer ? [deployer] : []), ...options.walletKeys, ...poolKeys];
  const writer = new NodeWriter(rpc, chainId, { ...(keys ? { keys, pools } : {}), sendsSync: capabilities.sendsSync });
  // A world that cannot come out right here is refused before anything else is asked of the node.
  const timed = !recorded && (options.worldChains?.has(chainId) ?? true);
  const impersonated = timed ? (options.impersonated ?? []) : [];
  // With keys given the simulator only signs: a world account at a live address, without its key, cannot send.
  if (writer.signs && impersonated.length > 0)
    throw nodeRefused(
      `chain ${chainId} (${rpc.shown}): the world has ${impersonated.length} account(s) at live addresses without a ` +
        `key (${impersonated.slice(0, 3).join(", ")}${impersonated.length > 3 ? ", …" : ""}), and with --keys the ` +
        `simulator sends only what it signs: give their keys in the keys file by account name, or start without ` +
        `--keys on a dev node (anvil, a Hardhat node), which sends as them by impersonation`,
    );
  const time = timed ? await startTime(rpc, chainId, capabilities.setsTime, options.genesisTime) : undefined;
  const senders = [...(deployer && !recorded ? [addressOf(deployer)] : []), ...options.walletKeys.map(addressOf)];
  if (writer.signs) await checkFunded(rpc, chainId, [...senders, ...poolKeys.map(addressOf)]);
  else await openWallets(rpc, chainId, capabilities, [...senders, ...impersonated]);
  await writer.primeNonces();

  let placed: { contracts: RecordedChain | Omit<RecordedChain, "world" | "loadedAt">; attached?: RecordedChain };
  if (recorded) {
    placed = { contracts: await attachTo(rpc, chainId, recorded, options.contracts!.path), attached: recorded };
  } else {
    if (!deployer)
      throw nodeRefused(
        `chain ${chainId} (${rpc.shown}): the keys give no deployer to deploy the contracts with; add "deployer" to ` +
          `the keys, or attach with --contracts`,
      );
    const startBlock = timed ? options.startBlocks?.get(chainId) : undefined;
    const passed =
      startBlock === undefined
        ? undefined
        : await mineUntilNext(rpc.provider, startBlock, { node: true, pinsTime: capabilities.pinsBlockTime }).catch(
            (error: unknown) => {
              if (!isStartError(error, START_ERRORS.NODE_REFUSED)) throw error;
              throw nodeRefused(
                `the node at ${rpc.shown} (chain ${chainId}): the world starts at block ${startBlock}, and ${error.message}. ` +
                  `Start the node just below it (anvil --number ${startBlock - 1}), or serve the world in process ` +
                  `(without --rpc-url).`,
              );
            },
          );
    if (passed) throw nodeRefused(`the node at ${rpc.shown}: ${heightPassed(chainId, startBlock!, passed.passedAt)}`);
    const { contracts, deployedAt } = await deployOnNode(rpc, writer, addressOf(deployer), time);
    const marketplace = timed ? options.marketplaces?.get(chainId) : undefined;
    // Placed where the world has it (placeMarketplace): a dev node sets code and storage and traces calls; any other
    // is refused, naming what it lacks.
    const request = (method: string, params: unknown[]) => rpc.request(method, params);
    const placedAt = !marketplace
      ? contracts
      : await placeMarketplace(request, chainId, contracts, marketplace).catch((error: unknown) => {
          throw nodeRefused(
            `chain ${chainId} (${rpc.shown}): the world has its marketplace at ${marketplace.toLowerCase()} (a live ` +
              `marketplace's address), and placing it there failed: ${oneLine(error)}. Serve it on a dev node that ` +
              `sets code and storage and traces calls (anvil, a Hardhat node), or in process (without --rpc-url).`,
          );
        });
    placed = { contracts: { ...placedAt, deployedAt } };
  }
  const { factory, marketplace, stablecoin, deployedAt } = placed.contracts;
  const core = { factory, marketplace, stablecoin };
  const { name, nativeSymbol: symbol } = chainProfile(chainId);
  const link: ChainLink = {
    chainId,
    external: true,
    connection: { provider: rpc.provider },
    // No retries: a node that does not answer is reported at once (503), and asked again at the next poll.
    publicClient: createPublicClient({
      chain: defineChain({
        id: chainId,
        name,
        nativeCurrency: { name: symbol, symbol, decimals: 18 },
        rpcUrls: { default: { http: [rpc.url] } },
      }),
      transport: custom(rpc.provider, { retryCount: 0 }),
      pollingInterval: 250,
    }) as PublicClient,
    node: {
      rpc,
      capabilities,
      writer,
      deployedAt,
      ...(options.contracts
        ? { contractsFile: { path: options.contracts.path, attached: recorded !== undefined } }
        : {}),
    },
    close: async () => {},
  };
  const indexer = new ChainIndexer(
    chainLogSource(link.publicClient, indexedEventsAbi(options.abis), {
      ownLogsOnly: true,
      maxLogRange: NODE_LOG_RANGE,
    }),
    chainFacts(chainId, core),
    {
      fromBlock: deployedAt.block,
      anchor: { blockNumber: deployedAt.block, hash: deployedAt.hash },
      onClockBack: (message) => console.warn(message),
    },
  );
  const chain = new SimChain(chainId, core, options.abis, indexer, new ChainWriter(link));
  return { chain, ...(placed.attached ? { attached: placed.attached } : {}) };
}

/**
 * The time the deploys follow on from: the node's head, which for a timed world must be before
 * its genesis, on a node that can set block times. Undefined for a world without times.
 */
async function startTime(
  rpc: NodeRpc,
  chainId: number,
  setsTime: boolean,
  genesisTime: Date | undefined,
): Promise<number | undefined> {
  if (!genesisTime) return undefined;
  const genesis = Math.floor(genesisTime.getTime() / 1000);
  if (!setsTime)
    throw nodeRefused(
      `the node at ${rpc.shown} (chain ${chainId}) cannot set block times (it has no evm_setNextBlockTimestamp), so ` +
        `this world, whose every event has its own time, cannot be replayed there without coming out wrong. Start ` +
        `with --fixture none (an empty world), or attach to contracts a run on a dev node recorded (--contracts).`,
    );
  const head = (await rpc.request("eth_getBlockByNumber", ["latest", false])) as { timestamp: Hex };
  const headTime = Number(BigInt(head.timestamp));
  if (headTime > genesis + 60)
    throw nodeRefused(
      `the node at ${rpc.shown} (chain ${chainId}) is at ${new Date(headTime * 1000).toISOString()}, after the ` +
        `world's first steps (genesis ${genesisTime.toISOString()}): blocks cannot go back in time. Start the node ` +
        `at the world's genesis (anvil --timestamp ${genesis}), attach to a world loaded there before ` +
        `(--contracts), or use --fixture none.`,
    );
  return headTime;
}
