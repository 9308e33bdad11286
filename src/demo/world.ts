import { parseEther, parseUnits, zeroAddress, type Address } from "viem";
import { addItem } from "../chain/actions/add-item.ts";
import { addItems } from "../chain/actions/add-items.ts";
import { approveCurrency } from "../chain/actions/approve-currency.ts";
import { approveMarketplace } from "../chain/actions/approve-marketplace.ts";
import { buy } from "../chain/actions/buy.ts";
import { createCollection, createdCollection } from "../chain/actions/create-collection.ts";
import { delist } from "../chain/actions/delist.ts";
import { faucet } from "../chain/actions/faucet.ts";
import { list } from "../chain/actions/list.ts";
import { updatePrice } from "../chain/actions/update-price.ts";
import type { SimChain } from "../chain/sim-chain.ts";
import { addressOf, keyFor } from "../chain/keys.ts";
import type { ApiAccount } from "../config.ts";
import { slugify, type CollectionMetadata } from "../metadata/store.ts";
import type { SeedTarget, World } from "../simulator.ts";

function apiAccount(apiKey: string, name: string): ApiAccount {
  const walletKey = keyFor(`developer/${name}`);
  return { apiKey, name, walletKey, wallet: addressOf(walletKey) };
}

export const DEMO_ACCOUNTS = {
  studio: apiAccount("demo-studio-key", "studio"),
  arcade: apiAccount("demo-arcade-key", "arcade"),
  guest: apiAccount("demo-guest-key", "guest"),
};

const collectorKeys = { alice: keyFor("collector/alice"), bob: keyFor("collector/bob") };
const collectors = { alice: addressOf(collectorKeys.alice), bob: addressOf(collectorKeys.bob) };

interface DemoCollection {
  name: string;
  meta: Omit<CollectionMetadata, "slug" | "isVerified">;
}

const DEMO_COLLECTIONS: Record<number, DemoCollection[]> = {
  56: [
    { name: "Dragon Riders", meta: { description: "Mounts and saddles of the sky clans.", genre: "Gaming", image: "https://picsum.photos/seed/dragon/512", imageHash: "QmDragonRiders", website: "https://example.com/dragon-riders" } },
    { name: "Pixel Potions", meta: { description: "Consumable brews for Pixel Quest.", genre: "Gaming", image: "https://picsum.photos/seed/potions/512", imageHash: "QmPixelPotions", website: "" } },
    { name: "Skyline Relics", meta: { description: "Found objects from a city above the clouds.", genre: "Art", image: "", imageHash: "", website: "" } },
  ],
  137: [
    { name: "Neon Racers", meta: { description: "Cars and parts for Neon Racing.", genre: "Gaming", image: "https://picsum.photos/seed/racers/512", imageHash: "QmNeonRacers", website: "https://example.com/neon" } },
    { name: "Harbor Tiles", meta: { description: "Hand-drawn map tiles.", genre: "Art", image: "", imageHash: "", website: "" } },
  ],
};

/**
 * A small world so every endpoint answers something real: a few collections on
 * each chain, stackable and non-stackable items, and on each chain a listing, a
 * price update, a partial sale in the native coin, a sale in the stablecoin and a delisting.
 */
export const demoWorld: World = {
  accounts: Object.values(DEMO_ACCOUNTS),
  actorKeys: Object.values(collectorKeys),
  async seed(sim) {
    for (const chain of sim.chains.all()) await seedChain(sim, chain);
  },
};

async function seedChain(sim: SeedTarget, chain: SimChain): Promise<void> {
  const { contracts, chainId } = chain;
  const studio = DEMO_ACCOUNTS.studio.wallet;
  const done = async (hash: Promise<`0x${string}`>) => chain.confirmed(await hash);
  const addresses: Address[] = [];
  for (const { name, meta } of DEMO_COLLECTIONS[chainId] ?? DEMO_COLLECTIONS[56]!) {
    const slug = slugify(name);
    const uri = `${sim.url}/metadata/${chainId}/${slug}`;
    const receipt = await done(createCollection(chain, { from: studio, name, uri, owner: studio, minters: [DEMO_ACCOUNTS.arcade.wallet] }));
    const address = createdCollection(chain, receipt);
    sim.metadata.setCollection(chainId, address, { ...meta, slug, isVerified: true });
    addresses.push(address);
  }
  const [first, second] = addresses as [Address, Address];
  const { alice, bob } = collectors;
  await done(addItem(chain, { from: studio, collection: first, to: alice, initialSupply: 10n, maxSupply: 100n, royaltyPerMille: 50n }));
  await done(addItems(chain, { from: studio, collection: first, to: bob, count: 3n, royaltyPerMille: 25n }));
  await done(addItem(chain, { from: studio, collection: second, to: bob, initialSupply: 50n, maxSupply: 500n, royaltyPerMille: 0n }));

  await done(approveMarketplace(chain, { owner: alice, collection: first }));
  await done(list(chain, { seller: alice, collection: first, tokenId: 1n, amount: 4n, price: parseEther("0.5"), currency: zeroAddress }));
  await done(updatePrice(chain, { seller: alice, listingId: 1n, price: parseEther("0.4") }));
  await done(buy(chain, { buyer: bob, listingId: 1n, amount: 2n, value: parseEther("0.8") }));

  await done(approveMarketplace(chain, { owner: bob, collection: second }));
  await done(list(chain, { seller: bob, collection: second, tokenId: 1n, amount: 10n, price: parseUnits("12.5", 6), currency: contracts.stablecoin }));
  await done(faucet(chain, { to: alice, amount: parseUnits("1000", 6) }));
  await done(approveCurrency(chain, { owner: alice, amount: parseUnits("1000", 6) }));
  await done(buy(chain, { buyer: alice, listingId: 2n, amount: 3n }));
  await done(delist(chain, { seller: bob, listingId: 2n }));
}
