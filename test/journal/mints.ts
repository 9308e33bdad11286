import { mintItem } from "../harness.ts";

// Simulator processes of the demo world kept with --state, and mints and reads against them as a client would: the
// journal's process tests.

export interface MintTarget {
  chainId: number;
  collection: string;
  recipient: string;
}

export interface Answered {
  status: number;
  body: any;
}

export const json = async (url: string) => (await fetch(url)).json() as Promise<any>;

/** On each chain, a collection the demo studio mints on, and a recipient of its own. */
export async function mintTargets(base: string): Promise<MintTarget[]> {
  return Promise.all(
    [56, 137].map(async (chainId) => {
      const { collections } = await json(`${base}/api/v2/collection?chainId=${chainId}`);
      for (const { address } of collections) {
        if ((await json(`${base}/_sim/collections/${address}/items`)).items.length > 0)
          return {
            chainId,
            collection: address as string,
            recipient: `0x00000000000000000000000000000000000c${chainId.toString().padStart(4, "0")}`,
          };
      }
      throw new Error(`no collection with items on chain ${chainId}`);
    }),
  );
}

/** One mint of an item named `name` (supply 2); a connection that breaks (the process killed) answers status 0. */
export async function mint(base: string, target: MintTarget, name: string): Promise<Answered> {
  try {
    const { collection, chainId, recipient } = target;
    return await mintItem({ url: base }, { collection, chainId, recipient, item: { name, initialSupply: 2 } });
  } catch {
    return { status: 0, body: undefined };
  }
}

/** Every item of a collection with the transactions of its history, by name. */
export async function itemsByName(
  base: string,
  collection: string,
): Promise<Map<string, { tokenId: number; txs: string[] }[]>> {
  const { items } = await json(`${base}/_sim/collections/${collection}/items`);
  const byName = new Map<string, { tokenId: number; txs: string[] }[]>();
  for (const { tokenId, name } of items as { tokenId: number; name: string }[]) {
    const { events } = await json(`${base}/api/v2/item/events/${collection}/${tokenId}?perPage=100`);
    const found = byName.get(name) ?? [];
    found.push({ tokenId, txs: (events as { transactionHash: string }[]).map((event) => event.transactionHash) });
    byName.set(name, found);
  }
  return byName;
}

/** `npm run simulate`'s arguments for the demo world kept in `dir` (--state), on a free port, without JSON-RPC. */
export function demoWithState(dir: string): string[] {
  return ["--fixture", "demo", "--port", "0", "--no-rpc", "--state", dir, "--public-url", "http://sim.test"];
}
