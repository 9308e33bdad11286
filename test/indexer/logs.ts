import { zeroAddress, type Address, type Hex } from "viem";
import { applyLogs } from "../../src/indexer/apply.ts";
import type { ArgsOf, DecodedLog, IndexedEventName } from "../../src/indexer/log-source.ts";
import { emptyModels, type ChainFacts, type ChainModels } from "../../src/indexer/models.ts";

// Decoded logs made by hand, shaped as viem decodes them, so reducers and views run without a chain: the indexer's
// tests' one home for fake logs, the models they fold into, and the histories several tests start from.

export const FACTORY: Address = "0xfac0000000000000000000000000000000000001";
export const MARKETPLACE: Address = "0xa4e0000000000000000000000000000000000002";
export const STABLECOIN: Address = "0x5dc0000000000000000000000000000000000003";
export const COLLECTION: Address = "0xc011000000000000000000000000000000000004";
export const OTHER_COLLECTION: Address = "0xc011000000000000000000000000000000000005";
export const ALICE: Address = "0xa11ce00000000000000000000000000000000006";
export const BOB: Address = "0xb0b0000000000000000000000000000000000007";
export const CAROL: Address = "0xca201000000000000000000000000000000000008";
export const GENESIS = 1_700_000_000;

export function chainFacts(): ChainFacts {
  return {
    chainId: 56,
    factory: FACTORY,
    marketplace: MARKETPLACE,
    currencies: new Map([
      [zeroAddress, { decimals: 18, usdPrice: 600 }],
      [STABLECOIN, { decimals: 6, usdPrice: 1 }],
    ]),
  };
}

/** Logs in chain order: one block per log unless a log says otherwise, block times a minute apart. */
export class LogBook {
  logs: DecodedLog[] = [];
  #block = 1n;

  add<Name extends IndexedEventName>(
    eventName: Name,
    address: Address,
    args: ArgsOf<Name>,
    options: { sameBlock?: boolean; at?: number } = {},
  ): this {
    const previous = this.logs.at(-1);
    if (previous && !options.sameBlock) this.#block += 1n;
    if (options.at !== undefined) this.#block = BigInt(options.at);
    const inBlock = previous?.blockNumber === this.#block ? previous.logIndex + 1 : 0;
    const log = {
      eventName,
      args,
      address,
      blockNumber: this.#block,
      logIndex: inBlock,
      transactionHash: txHash(this.#block),
      blockTimestamp: BigInt(GENESIS + Number(this.#block) * 60),
    };
    this.logs.push(log as unknown as DecodedLog);
    return this;
  }

  /** A mint as the contract logs it: ItemCreated, then its initial supply sent to the creator in the same block. */
  mint(collection: Address, created: ArgsOf<"ItemCreated">, options: { sameBlock?: boolean } = {}): this {
    const { tokenId: id, creator, initialSupply: value } = created;
    return this.add("ItemCreated", collection, created, options).add(
      "TransferSingle",
      collection,
      { operator: creator, from: zeroAddress, to: creator, id, value },
      { sameBlock: true },
    );
  }

  blockTimes(): Map<bigint, number> {
    return new Map(this.logs.map((log) => [log.blockNumber, Number(log.blockTimestamp)]));
  }
}

/** One transaction per block: every log of a block shares its hash. */
export function txHash(block: bigint): Hex {
  return `0x${block.toString(16).padStart(64, "0")}`;
}

export function createCollection(
  book: LogBook,
  collection: Address = COLLECTION,
  owner: Address = ALICE,
  metadata: Hex = "0x",
): LogBook {
  return book.add("CollectionCreated", FACTORY, { collection, owner, name: "Cards", uri: "http://x/cards", metadata });
}

export function market(
  listingId: bigint,
  seller: Address,
  tokenId: bigint,
  amount: bigint,
  price: bigint,
  currency: Address = zeroAddress,
  collection: Address = COLLECTION,
) {
  return { listingId, seller, collection, tokenId, amount, price, currency };
}

/** ItemCreated's arguments for token `tokenId`: by Alice, one of it, as many as it may ever have, no royalty, unless said. */
export function itemCreated(
  tokenId: bigint,
  {
    creator = ALICE,
    initialSupply = 1n,
    maxSupply = initialSupply,
    royaltyPerMille = 0n,
  }: Partial<ArgsOf<"ItemCreated">> = {},
): ArgsOf<"ItemCreated"> {
  return { tokenId, creator, maxSupply, initialSupply, royaltyPerMille };
}

/** Alice's collection with token 1 minted to her: 5 of it, at most 9 unless said. */
export function mintedBook(created: Partial<ArgsOf<"ItemCreated">> = {}): LogBook {
  return createCollection(new LogBook()).mint(
    COLLECTION,
    itemCreated(1n, { initialSupply: 5n, maxSupply: 9n, ...created }),
  );
}

/** The read models a book's logs fold into, in one batch from empty. */
export function fold(book: LogBook): ChainModels {
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  return models;
}
