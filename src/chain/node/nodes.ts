import type { Hex } from "viem";
import type { SimChain } from "../sim-chain.ts";
import { connectNode, type ConnectedNode, type NodeOptions } from "./connect.ts";
import type { ContractsFile } from "./contracts-file.ts";
import { NodeRpc, shownUrl } from "./rpc.ts";
import { nodeRefused } from "./capabilities.ts";

/**
 * Connects to every node given by --rpc-url (see connectNode); two that serve the same chain id are refused before
 * anything is deployed.
 */
export async function connectNodes(urls: string[], options: NodeOptions): Promise<ConnectedNode[]> {
  const ids = await Promise.all(
    urls.map((url) => new NodeRpc(url).request("eth_chainId").then(Number, () => undefined)),
  );
  const seen = new Map<number, string>();
  for (const [i, id] of ids.entries()) {
    if (id === undefined) continue;
    const other = seen.get(id);
    const shown = shownUrl(urls[i]!);
    if (other) throw nodeRefused(`--rpc-url ${shown} and ${other} both serve chain ${id}: give one node per chain id`);
    seen.set(id, shown);
  }
  return Promise.all(urls.map((url) => connectNode(url, options)));
}

/**
 * Before the world is seeded: a chain attached to recorded contracts must hold the very world asked for (and no journal
 * is replayed onto it).
 */
export function checkAttachedWorld(
  nodes: ConnectedNode[],
  file: ContractsFile | undefined,
  worldId: string,
  stateDir: string | undefined,
): void {
  for (const { chain, attached } of nodes) {
    if (!attached) continue;
    if (stateDir !== undefined)
      throw nodeRefused(
        `chain ${chain.chainId} is attached (--contracts ${file!.path}) and already holds what was done there, ` +
          `while --state ${stateDir} would send its journal again: use one or the other.`,
      );
    if (attached.world === worldId) continue;
    throw nodeRefused(
      `chain ${chain.chainId}: ${file!.path} records the world "${attached.world}" on its contracts, not ` +
        `"${worldId}", which this start asks for (the scenario, its "now" and the collection uris' base make a ` +
        `world). Start with the same --fixture, --port or --public-url, or give another --contracts file to deploy ` +
        `afresh.`,
    );
  }
}

/**
 * Once the world is in: every chain deployed in this run is recorded with the world it now holds, and the head it
 * finished at.
 */
export async function recordWorld(nodes: ConnectedNode[], file: ContractsFile, worldId: string): Promise<void> {
  for (const { chain, attached } of nodes) {
    if (attached) continue;
    const { rpc, deployedAt } = chain.node!;
    const head = (await chain.read()).head.blockNumber;
    const block = (await rpc.request("eth_getBlockByNumber", [`0x${head.toString(16)}`, false])) as { hash: Hex };
    file.record(chain.chainId, {
      ...chain.contracts,
      deployedAt,
      world: worldId,
      loadedAt: { block: head, hash: block.hash },
    });
  }
}

/**
 * Follows each node: every `intervalMs` the index looks for blocks mined by others (and for a
 * reorg or a revert), whether or not anyone reads. A node that does not answer is asked again
 * next time; reads meanwhile answer 503. Answers a function that stops following.
 */
export function followNodes(chains: SimChain[], intervalMs: number): () => void {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const poll = (chain: SimChain) => {
    const timer = setTimeout(async () => {
      timers.delete(timer);
      chain.indexer.markRewritten();
      await chain.sync().catch(() => undefined);
      if (!stopped) poll(chain);
    }, intervalMs);
    timer.unref();
    timers.add(timer);
  };
  chains.forEach(poll);
  return () => {
    stopped = true;
    timers.forEach(clearTimeout);
  };
}
