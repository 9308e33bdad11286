import { parseEther, parseUnits, zeroAddress, type Address } from "viem";
import { createCollection } from "../chain/actions/create-collection.ts";
import { contractAs } from "../chain/contracts.ts";
import { addressOf, keyFor } from "../chain/keys.ts";
import type { ApiAccount } from "../config.ts";
import { slugify, type CollectionMetadata } from "../metadata/store.ts";
import type { SimChain, Simulator, World } from "../simulator.ts";

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
    for (const target of sim.chains.values()) await seedChain(sim, target);
  },
};

async function seedChain(sim: Simulator, target: SimChain): Promise<void> {
  const { chain, contracts, chainId } = target;
  const studio = DEMO_ACCOUNTS.studio.wallet;
  const deployer = addressOf(target.deployer);
  const addresses: Address[] = [];
  for (const { name, meta } of DEMO_COLLECTIONS[chainId] ?? DEMO_COLLECTIONS[56]!) {
    const slug = slugify(name);
    const uri = `${sim.url}/metadata/${chainId}/${slug}`;
    const address = await createCollection(chain, contracts, deployer, { name, uri, owner: studio, minters: [DEMO_ACCOUNTS.arcade.wallet] });
    sim.metadata.setCollection(chainId, address, { ...meta, slug, isVerified: true });
    addresses.push(address);
  }

  const first = await contractAs(chain, "Collection", addresses[0]!, studio);
  const wait = (hash: `0x${string}`) => chain.publicClient.waitForTransactionReceipt({ hash });
  await wait(await first.write.addItem([collectors.alice, 10n, 100n, 50n]));
  await wait(await first.write.addItems([collectors.bob, 3n, 25n]));
  const second = await contractAs(chain, "Collection", addresses[1]!, studio);
  await wait(await second.write.addItem([collectors.bob, 50n, 500n, 0n]));

  const market = (sender: Address) => contractAs(chain, "Marketplace", contracts.marketplace, sender);
  const asAlice = await contractAs(chain, "Collection", addresses[0]!, collectors.alice);
  await wait(await asAlice.write.setApprovalForAll([contracts.marketplace, true]));
  const aliceMarket = await market(collectors.alice);
  await wait(await aliceMarket.write.list([addresses[0]!, 1n, 4n, parseEther("0.5"), zeroAddress]));
  await wait(await aliceMarket.write.updatePrice([1n, parseEther("0.4")]));
  const bobMarket = await market(collectors.bob);
  await wait(await bobMarket.write.buy([1n, 2n], { value: parseEther("0.8") }));

  const asBob = await contractAs(chain, "Collection", addresses[1]!, collectors.bob);
  await wait(await asBob.write.setApprovalForAll([contracts.marketplace, true]));
  await wait(await bobMarket.write.list([addresses[1]!, 1n, 10n, parseUnits("12.5", 6), contracts.stablecoin]));
  const stablecoin = await contractAs(chain, "TestStablecoin", contracts.stablecoin, collectors.alice);
  await wait(await stablecoin.write.mint([collectors.alice, parseUnits("1000", 6)]));
  await wait(await stablecoin.write.approve([contracts.marketplace, parseUnits("1000", 6)]));
  await wait(await aliceMarket.write.buy([2n, 3n]));
  await wait(await bobMarket.write.delist([2n]));
}
