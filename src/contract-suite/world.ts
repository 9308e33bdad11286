import { parseEther, zeroAddress, type Address, type Hex } from "viem";
import { addItem, createdTokenIds } from "../chain/actions/add-item.ts";
import { addToListing } from "../chain/actions/add-to-listing.ts";
import { approveMarketplace } from "../chain/actions/approve-marketplace.ts";
import { buy } from "../chain/actions/buy.ts";
import { createCollection, createdCollection } from "../chain/actions/create-collection.ts";
import { delist } from "../chain/actions/delist.ts";
import { list, openedListing } from "../chain/actions/list.ts";
import { removeFromListing } from "../chain/actions/remove-from-listing.ts";
import { transfer } from "../chain/actions/transfer.ts";
import { updatePrice } from "../chain/actions/update-price.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { addressOf, keyFor } from "../chain/keys.ts";
import { DEMO_ACCOUNTS, demoWorld } from "../demo/world.ts";
import { slugify } from "../metadata/store.ts";
import type { SeedTarget, World } from "../simulator.ts";

/** The item whose history the suite reads on the local simulator. */
export interface BusyItem {
  collection: Address;
  tokenId: number;
  chainId: number;
}

const EXTRA_COLLECTIONS = 22;
const GENRES = ["Gaming", "Art", "Music", "Sports"];
const ROUND_TRIPS = 13;

const traderKeys = { a: keyFor("contract-suite/trader-a"), b: keyFor("contract-suite/trader-b") };
const traders = { a: addressOf(traderKeys.a), b: addressOf(traderKeys.b) };

/**
 * The demo world plus what gives every check teeth: more collections than one
 * default page (so a wrong default perPage shows) and an item with a history
 * longer than one default page, holding transfers and every marketplace event kind.
 */
export function contractWorld(): { world: World; busyItem(): BusyItem } {
  let busy: BusyItem | undefined;
  const world: World = {
    ...demoWorld,
    actorKeys: [...demoWorld.actorKeys, ...(Object.values(traderKeys) as Hex[])],
    async seed(sim) {
      await demoWorld.seed(sim);
      const chains = sim.chains.all();
      const extra: Address[] = [];
      for (let i = 0; i < EXTRA_COLLECTIONS; i++) extra.push(await addCollection(sim, chains[i % chains.length]!, i));
      busy = await makeBusyItem(chains[0]!, extra[0]!);
    },
  };
  return {
    world,
    busyItem() {
      if (!busy) throw new Error("the contract world has not been seeded");
      return busy;
    },
  };
}

async function addCollection(sim: SeedTarget, chain: SimChain, index: number): Promise<Address> {
  const name = `Suite Collection ${String(index + 1).padStart(2, "0")}`;
  const slug = slugify(name);
  const studio = DEMO_ACCOUNTS.studio.wallet;
  const uri = `${sim.url}/metadata/${chain.chainId}/${slug}`;
  const hash = await createCollection(chain, { from: studio, name, uri, owner: studio, minters: [] });
  const address = createdCollection(chain, await chain.confirmed(hash));
  const genre = GENRES[index % GENRES.length]!;
  sim.metadata.setCollection(chain.chainId, address, { description: `Padding for the contract suite (${genre}).`, genre, image: "", imageHash: "", website: "", slug, isVerified: true });
  return address;
}

/** One stackable item traded back and forth, then listed, repriced, partly sold, topped up, reduced and delisted. */
async function makeBusyItem(chain: SimChain, collection: Address): Promise<BusyItem> {
  const done = async (hash: Promise<Hex>) => chain.confirmed(await hash);
  const studio = DEMO_ACCOUNTS.studio.wallet;
  const [tokenId] = createdTokenIds(chain, await done(addItem(chain, { from: studio, collection, to: traders.a, initialSupply: 1000n, maxSupply: 1000n, royaltyPerMille: 25n })));
  for (let i = 0; i < ROUND_TRIPS; i++) {
    await done(transfer(chain, { from: traders.a, to: traders.b, collection, tokenId: tokenId!, amount: 3n }));
    await done(transfer(chain, { from: traders.b, to: traders.a, collection, tokenId: tokenId!, amount: 1n }));
  }
  await done(approveMarketplace(chain, { owner: traders.a, collection }));
  const listingId = openedListing(chain, await done(list(chain, { seller: traders.a, collection, tokenId: tokenId!, amount: 5n, price: parseEther("0.1"), currency: zeroAddress })));
  await done(updatePrice(chain, { seller: traders.a, listingId, price: parseEther("0.2") }));
  await done(buy(chain, { buyer: traders.b, listingId, amount: 2n, value: parseEther("0.4") }));
  await done(addToListing(chain, { seller: traders.a, listingId, amount: 2n }));
  await done(removeFromListing(chain, { seller: traders.a, listingId, amount: 1n }));
  await done(delist(chain, { seller: traders.a, listingId }));
  return { collection, tokenId: Number(tokenId), chainId: chain.chainId };
}
