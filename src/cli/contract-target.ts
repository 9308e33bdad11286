import { hasMinterRole } from "../chain/actions/minter-role.ts";
import { setupFailed } from "../contract-suite/setup.ts";
import type { Target } from "../contract-suite/target.ts";
import { CONTRACT_SUITE_WORLD_FILE, fixtureWorld } from "../scenario/worlds.ts";
import { startSimulator, type Simulator } from "../simulator/simulator.ts";

/** The scenario item whose history the suite reads on the local simulator (fixtures/contract-suite-world.json). */
const BUSY_ITEM = "busy-coin";
const API_KEY = "demo-studio-key";

/**
 * A simulator in this process, on a free port, without JSON-RPC: the suite's target when no base URL is given.
 * With writes allowed, the suite mints with `apiKey` (the world's studio key when not given) on `mintCollection` (when
 * not given, one the key's wallet holds the minter role on: the simulator is asked); TARGET_UNUSABLE when none.
 */
export async function startLocalTarget({
  allowWrites = false,
  apiKey = API_KEY,
  mintCollection,
}: { allowWrites?: boolean; apiKey?: string; mintCollection?: string } = {}) {
  const world = fixtureWorld(CONTRACT_SUITE_WORLD_FILE);
  const sim = await startSimulator(world, { port: 0, serveRpc: false });
  const { chainId, collection, tokenIds } = world.landed.item(BUSY_ITEM);
  const target: Target = { baseUrl: sim.url, apiKey, collection, tokenId: Number(tokenIds[0]), chainId, allowWrites };
  try {
    if (allowWrites) target.mintCollection = await collectionToMintOn(sim, apiKey, mintCollection, collection);
  } catch (error) {
    await sim.close();
    throw error;
  }
  return { sim, target, close: () => sim.close() };
}
export type LocalTarget = Awaited<ReturnType<typeof startLocalTarget>>;

/** `given` when the key's wallet may mint on it; without it, `busy` or else the first collection the wallet may mint on. */
async function collectionToMintOn(sim: Simulator, apiKey: string, given: string | undefined, busy: string) {
  const wallet = sim.accounts.byApiKey(apiKey)?.wallet;
  const keys = Array.from(sim.accounts.list(), (account) => account.apiKey).join(", ");
  if (!wallet)
    throw setupFailed(`${sim.url} knows no API key '${apiKey}': pass --api-key of one of its keys (${keys})`);
  const wanted = (given ?? busy).toLowerCase();
  // The wanted collection first; the others only when none was given.
  const candidates = (await sim.chains.read())
    .flatMap(({ chain, models }) => [...models.collections.keys()].map((address) => ({ chain, address })))
    .filter(({ address }) => given === undefined || address === wanted)
    .sort((a, b) => Number(b.address === wanted) - Number(a.address === wanted));
  if (given !== undefined && candidates.length === 0)
    throw setupFailed(`${sim.url} has no collection ${given}: pass --collection of one it lists`);
  for (const { chain, address } of candidates)
    if (await hasMinterRole(chain, { collection: address, wallet })) return address;
  throw setupFailed(
    given === undefined
      ? `the API key '${apiKey}' may mint on no collection at ${sim.url}: pass another --api-key (its keys: ${keys})`
      : `the API key '${apiKey}' may not mint on collection ${given} at ${sim.url}: pass --collection it may mint on, or another --api-key`,
  );
}
