import { expect } from "vitest";
import { zeroAddress, type Address, type Hex, type PublicClient } from "viem";
import type { SimChain } from "../src/chain/sim-chain.ts";
import type { Abis } from "../src/core/abi.ts";
import { lowerAddress } from "../src/core/formats.ts";
import { itemKey, type ReadModels } from "../src/indexer/models.ts";

// An oracle outside the reducers: what the contracts themselves answer (the factory's collections, each
// collection's `itemCount`, `maxSupply`, `totalSupply` and `balanceOfBatch`, the marketplace's `listings`), read at
// the block the read models were folded to, against what the read models say. The only thing taken from the logs is
// who to ask about: every account a transfer ever named. A reducer that miscounts passes a comparison with a fresh
// index folded by the same reducers; it cannot pass this one.

/** A chain's contracts, as a client reads them, and read models of it. */
export interface OracleSubject {
  client: PublicClient;
  abis: Abis;
  models: ReadModels;
}

/** Every difference between the contracts' state and the chain's read models, each naming the item, holder or listing. */
export async function contractMismatches({ client, abis, models }: OracleSubject): Promise<string[]> {
  const blockNumber = BigInt(models.head.blockNumber);
  const { collection: collectionAbi } = abis;
  const { factory, marketplace } = models.facts;
  const mismatches: string[] = [];
  const differ = (what: string, onChain: unknown, inModels: unknown) => {
    if (String(onChain) !== String(inModels))
      mismatches.push(`${what}: the contract says ${onChain}, the read models ${inModels}`);
  };

  const created = await collectionsCreated(client, abis, factory, blockNumber);
  const collections = created.map((log) => lowerAddress(log.args.collection!));
  // A collection logs nothing before the factory made it: its logs are asked for from there, not from block 0 (a
  // chain at a live height holds tens of millions of blocks, and a scan of them all takes a quarter of a second).
  const createdAt = new Map(created.map((log) => [lowerAddress(log.args.collection!), log.blockNumber]));
  const openListings = await listingsOn(client, abis, marketplace, blockNumber);
  differ("the collections", [...collections].sort(), [...models.collections.keys()].sort());

  for (const collection of collections) {
    const read = <T>(functionName: string, args: unknown[] = []) =>
      client.readContract({
        address: collection,
        abi: collectionAbi,
        functionName,
        args,
        blockNumber,
      } as never) as Promise<T>;
    const itemCount = Number(await read<bigint>("itemCount"));
    const ids = Array.from({ length: itemCount }, (_, index) => BigInt(index + 1));
    const transfers = await client.getContractEvents({
      address: collection,
      abi: collectionAbi,
      fromBlock: createdAt.get(collection),
      toBlock: blockNumber,
    });
    const accounts = new Set<Address>([marketplace]);
    for (const { args } of transfers as { args: { from?: Address; to?: Address } }[])
      for (const account of [args.from, args.to])
        if (account && account !== zeroAddress) accounts.add(lowerAddress(account));

    differ(
      `collection ${collection}: its items`,
      ids.map((id) => itemKey(collection, id)),
      [...models.items.keys()].filter((key) => key.startsWith(`${collection}-`)).sort(byTokenId),
    );
    const holderCounts = new Map<Address, number>();
    const holders = [...accounts];
    for (const id of ids) {
      const key = itemKey(collection, id);
      differ(`item ${key}: maxSupply`, await read<bigint>("maxSupply", [id]), models.items.get(key)?.maxSupply);
      const balances = await read<readonly bigint[]>("balanceOfBatch", [holders, holders.map(() => id)]);
      const kept = models.balances.get(key);
      let sum = 0n;
      holders.forEach((holder, at) => {
        const balance = balances[at]!;
        sum += kept?.get(holder) ?? 0n;
        differ(`item ${key}: balanceOf(${holder})`, balance, kept?.get(holder) ?? 0n);
        if (balance > 0n && holder !== marketplace) holderCounts.set(holder, (holderCounts.get(holder) ?? 0) + 1);
      });
      for (const holder of kept?.keys() ?? [])
        if (!accounts.has(holder))
          mismatches.push(`item ${key}: the read models hold ${holder}, whom no transfer named`);
      differ(`item ${key}: totalSupply`, await read<bigint>("totalSupply", [id]), sum);
    }
    for (const listing of openListings.values())
      if (listing.collection === collection)
        holderCounts.set(listing.seller, (holderCounts.get(listing.seller) ?? 0) + 1);
    const counted = models.holders.get(collection) ?? new Map<Address, number>();
    for (const holder of new Set([...holderCounts.keys(), ...counted.keys()]))
      differ(
        `collection ${collection}: holder ${holder}'s nonzero balances and open listings`,
        holderCounts.get(holder) ?? 0,
        counted.get(holder) ?? 0,
      );
  }

  const known = new Set(collections);
  const onChain = [...openListings.entries()].filter(([, { collection }]) => known.has(collection));
  const listingText = ([id, { seller, collection, amount }]: [
    bigint,
    { seller: Address; collection: Address; amount: bigint },
  ]) => `listing ${id}: ${amount} of ${collection} by ${seller}`;
  differ(
    "the open listings",
    onChain.map(listingText).join("; "),
    [...models.listings.entries()]
      .sort(([a], [b]) => Number(a - b))
      .map(listingText)
      .join("; "),
  );
  return mismatches;
}

/** Fails, naming every item, holder and listing where the chain's read models differ from its contracts. */
export async function expectModelsMatchContracts(chain: SimChain): Promise<void> {
  const subject = { client: chain.publicClient, abis: chain.abis, models: await chain.read() };
  expect(await contractMismatches(subject), `chain ${chain.chainId}: read models against its contracts`).toEqual([]);
}

type CreatedLog = { blockNumber: bigint; args: { collection?: Address } };
/** The factory's logs up to a block, by client and factory, with that block's hash. */
const createdSeen = new WeakMap<PublicClient, Map<Address, { blockNumber: bigint; hash: Hex; logs: CreatedLog[] }>>();

/**
 * The factory's CollectionCreated logs up to `blockNumber`. A block's hash commits to every log before it: while the
 * block a previous read ended at keeps its hash, only the blocks after it are read (a chain at a live height holds tens
 * of millions of blocks, and a scan from block 0 takes a quarter of a second); a chain rewound below it is read again
 * from block 0.
 */
async function collectionsCreated(
  client: PublicClient,
  { factory: abi }: Abis,
  factory: Address,
  blockNumber: bigint,
): Promise<CreatedLog[]> {
  const seen = createdSeen.get(client) ?? new Map();
  createdSeen.set(client, seen);
  const kept = seen.get(factory);
  const still =
    kept !== undefined &&
    kept.blockNumber <= blockNumber &&
    (await client.getBlock({ blockNumber: kept.blockNumber })).hash === kept.hash;
  const fromBlock = still ? kept.blockNumber + 1n : 0n;
  // A node refuses a range that ends before it starts (anvil does), as when the chain has not moved since.
  const read =
    fromBlock > blockNumber
      ? []
      : ((await client.getContractEvents({
          address: factory,
          abi,
          eventName: "CollectionCreated",
          fromBlock,
          toBlock: blockNumber,
        })) as CreatedLog[]);
  const logs = still ? [...kept.logs, ...read] : read;
  seen.set(factory, { blockNumber, hash: (await client.getBlock({ blockNumber })).hash, logs });
  return logs;
}

type OpenListing = { seller: Address; collection: Address; amount: bigint };

/** The marketplace's open listings (amount above 0), by id, as its storage holds them. */
async function listingsOn(
  client: PublicClient,
  abis: Abis,
  address: Address,
  blockNumber: bigint,
): Promise<Map<bigint, OpenListing>> {
  const read = <T>(functionName: string, args: unknown[] = []) =>
    client.readContract({ address, abi: abis.marketplace, functionName, args, blockNumber } as never) as Promise<T>;
  const count = await read<bigint>("listingCount");
  const open = new Map<bigint, OpenListing>();
  for (let id = 1n; id <= count; id++) {
    const [seller, collection, , amount] = await read<readonly [Address, Address, bigint, bigint]>("listings", [id]);
    if (amount > 0n) open.set(id, { seller: lowerAddress(seller), collection: lowerAddress(collection), amount });
  }
  return open;
}

function byTokenId(a: string, b: string): number {
  return Number(BigInt(a.split("-")[1]!) - BigInt(b.split("-")[1]!));
}
