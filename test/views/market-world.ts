import { zeroAddress, type Address } from "viem";
import { advanceHead, applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels, type ChainModels } from "../../src/indexer/models.ts";
import { encodeItemDescription } from "../../src/metadata/codec.ts";
import {
  ALICE,
  BOB,
  CAROL,
  chainFacts,
  COLLECTION,
  createCollection,
  GENESIS,
  LogBook,
  market,
  MARKETPLACE,
  OTHER_COLLECTION,
  STABLECOIN,
} from "../indexer/logs.ts";

// One collection with a life on the marketplace, folded by the reducers, for the views the dashboard reads. Blocks are a
// minute apart from GENESIS; block 1,440 is a day later.

export const DAY_BLOCKS = 1_440;
export const DAVE: Address = "0xda7e000000000000000000000000000000000009";

export const SWORD = {
  name: "Sword",
  description: "sharp",
  imageUrl: "https://img/sword.png",
  fileType: "image/png",
  properties: [{ name: "power", value: "9", static: true }],
  isConsumable: true,
};

const transfer = (from: Address, to: Address, id: bigint, value: bigint) => ({ operator: from, from, to, id, value });

/**
 * Token 1 (described, stackable, 10 at most): 6 minted to Alice, 1 given to Bob. Listing 1: Alice 3 at 10 (native), its
 * price raised to 12, 1 sold to Carol. Listing 2: Bob 1 at 5 USDC, sold to Dave a day later. Listing 3: Alice 1,
 * delisted. Listings 4 and 5: Carol and Alice, 1 each at 1 USDC. Token 2 (undescribed, not stackable): 1 minted to Bob.
 * Token 4 (described, not stackable): 1 minted to Dave. Token 3 of another collection: 2 minted to Carol.
 */
export function marketWorld(): { models: ChainModels; book: LogBook } {
  const book = createCollection(new LogBook())
    .add("ItemCreated", COLLECTION, {
      tokenId: 1n,
      creator: ALICE,
      maxSupply: 10n,
      initialSupply: 6n,
      royaltyPerMille: 50n,
    })
    .add("TransferSingle", COLLECTION, transfer(zeroAddress, ALICE, 1n, 6n), { sameBlock: true })
    .add(
      "ItemDescribed",
      COLLECTION,
      { firstTokenId: 1n, count: 1n, stackable: true, metadata: encodeItemDescription(SWORD) },
      { sameBlock: true },
    )
    .add("ItemCreated", COLLECTION, {
      tokenId: 2n,
      creator: ALICE,
      maxSupply: 1n,
      initialSupply: 1n,
      royaltyPerMille: 0n,
    })
    .add("TransferSingle", COLLECTION, transfer(zeroAddress, BOB, 2n, 1n), { sameBlock: true })
    .add("TransferSingle", COLLECTION, transfer(ALICE, BOB, 1n, 1n))
    // Listing 1
    .add("TransferSingle", COLLECTION, transfer(ALICE, MARKETPLACE, 1n, 3n))
    .add("ItemListed", MARKETPLACE, market(1n, ALICE, 1n, 3n, 10n * 10n ** 18n), { sameBlock: true })
    .add("ItemPriceUpdated", MARKETPLACE, market(1n, ALICE, 1n, 3n, 12n * 10n ** 18n))
    .add("TransferSingle", COLLECTION, transfer(MARKETPLACE, CAROL, 1n, 1n))
    .add("Swapped", MARKETPLACE, { ...market(1n, ALICE, 1n, 1n, 12n * 10n ** 18n), buyer: CAROL }, { sameBlock: true })
    // Listing 2
    .add("TransferSingle", COLLECTION, transfer(BOB, MARKETPLACE, 1n, 1n))
    .add("ItemListed", MARKETPLACE, market(2n, BOB, 1n, 1n, 5_000_000n, STABLECOIN), { sameBlock: true })
    // Listing 3
    .add("TransferSingle", COLLECTION, transfer(ALICE, MARKETPLACE, 1n, 1n))
    .add("ItemListed", MARKETPLACE, market(3n, ALICE, 1n, 1n, 7n), { sameBlock: true })
    .add("ItemDelisted", MARKETPLACE, market(3n, ALICE, 1n, 1n, 7n))
    .add("TransferSingle", COLLECTION, transfer(MARKETPLACE, ALICE, 1n, 1n), { sameBlock: true })
    // Listings 4 and 5, at one USD price
    .add("TransferSingle", COLLECTION, transfer(CAROL, MARKETPLACE, 1n, 1n))
    .add("ItemListed", MARKETPLACE, market(4n, CAROL, 1n, 1n, 1_000_000n, STABLECOIN), { sameBlock: true })
    .add("TransferSingle", COLLECTION, transfer(ALICE, MARKETPLACE, 1n, 1n))
    .add("ItemListed", MARKETPLACE, market(5n, ALICE, 1n, 1n, 1_000_000n, STABLECOIN), { sameBlock: true })
    // A day later, listing 2 sold
    .add("TransferSingle", COLLECTION, transfer(MARKETPLACE, DAVE, 1n, 1n), { at: DAY_BLOCKS + 30 })
    .add(
      "Swapped",
      MARKETPLACE,
      { ...market(2n, BOB, 1n, 1n, 5_000_000n, STABLECOIN), buyer: DAVE },
      { sameBlock: true },
    )
    .add(
      "ItemCreated",
      COLLECTION,
      { tokenId: 4n, creator: ALICE, maxSupply: 1n, initialSupply: 1n, royaltyPerMille: 0n },
      { at: DAY_BLOCKS + 40 },
    )
    .add("TransferSingle", COLLECTION, transfer(zeroAddress, DAVE, 4n, 1n), { sameBlock: true })
    .add(
      "ItemDescribed",
      COLLECTION,
      { firstTokenId: 4n, count: 1n, stackable: false, metadata: encodeItemDescription({ ...SWORD, name: "Shield" }) },
      { sameBlock: true },
    );
  createCollection(book, OTHER_COLLECTION, CAROL)
    .add("ItemCreated", OTHER_COLLECTION, {
      tokenId: 3n,
      creator: CAROL,
      maxSupply: 2n,
      initialSupply: 2n,
      royaltyPerMille: 0n,
    })
    .add("TransferSingle", OTHER_COLLECTION, transfer(zeroAddress, CAROL, 3n, 2n), { sameBlock: true });
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  advanceHead(models, { number: BigInt(3 * DAY_BLOCKS), timestamp: BigInt(GENESIS + 3 * DAY_BLOCKS * 60) });
  return { models, book };
}

export const timeOf = (block: number) => GENESIS + block * 60;
