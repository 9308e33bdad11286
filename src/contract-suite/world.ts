import { parseEther, type Address, type Hex } from "viem";
import { createCollection } from "../chain/actions/create-collection.ts";
import { contractAs } from "../chain/contracts.ts";
import { addressOf, keyFor } from "../chain/keys.ts";
import { DEMO_ACCOUNTS, demoWorld } from "../demo/world.ts";
import { slugify } from "../metadata/store.ts";
import type { SimChain, Simulator, World } from "../simulator.ts";

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
      const chains = [...sim.chains.values()];
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

async function addCollection(sim: Simulator, target: SimChain, index: number): Promise<Address> {
  const name = `Suite Collection ${String(index + 1).padStart(2, "0")}`;
  const slug = slugify(name);
  const studio = DEMO_ACCOUNTS.studio.wallet;
  const address = await createCollection(target.chain, target.contracts, addressOf(target.deployer), {
    name,
    uri: `${sim.url}/metadata/${target.chainId}/${slug}`,
    owner: studio,
    minters: [],
  });
  const genre = GENRES[index % GENRES.length]!;
  sim.metadata.setCollection(target.chainId, address, { description: `Padding for the contract suite (${genre}).`, genre, image: "", imageHash: "", website: "", slug, isVerified: true });
  return address;
}

/** One stackable item traded back and forth, then listed, repriced, partly sold, topped up, reduced and delisted. */
async function makeBusyItem(target: SimChain, collection: Address): Promise<BusyItem> {
  const { chain, contracts } = target;
  const wait = async (hash: Hex) => void (await chain.publicClient.waitForTransactionReceipt({ hash }));
  const asStudio = await contractAs(chain, "Collection", collection, DEMO_ACCOUNTS.studio.wallet);
  const tokenId = (await asStudio.read.itemCount()) + 1n;
  await wait(await asStudio.write.addItem([traders.a, 1000n, 1000n, 25n]));

  const asA = await contractAs(chain, "Collection", collection, traders.a);
  const asB = await contractAs(chain, "Collection", collection, traders.b);
  for (let i = 0; i < ROUND_TRIPS; i++) {
    await wait(await asA.write.safeTransferFrom([traders.a, traders.b, tokenId, 3n, "0x"]));
    await wait(await asB.write.safeTransferFrom([traders.b, traders.a, tokenId, 1n, "0x"]));
  }

  await wait(await asA.write.setApprovalForAll([contracts.marketplace, true]));
  const marketA = await contractAs(chain, "Marketplace", contracts.marketplace, traders.a);
  const marketB = await contractAs(chain, "Marketplace", contracts.marketplace, traders.b);
  const listingId = (await marketA.read.listingCount()) + 1n;
  await wait(await marketA.write.list([collection, tokenId, 5n, parseEther("0.1"), "0x0000000000000000000000000000000000000000"]));
  await wait(await marketA.write.updatePrice([listingId, parseEther("0.2")]));
  await wait(await marketB.write.buy([listingId, 2n], { value: parseEther("0.4") }));
  await wait(await marketA.write.addToListing([listingId, 2n]));
  await wait(await marketA.write.removeFromListing([listingId, 1n]));
  await wait(await marketA.write.delist([listingId]));
  return { collection, tokenId: Number(tokenId), chainId: target.chainId };
}
