import { StartError } from "../core/errors.ts";
import { START_ERRORS } from "../core/start-errors.ts";
import type { LiveAnswer, PoliteFetchOptions } from "./polite-fetch.ts";
import { PoliteFetcher } from "./polite-fetch.ts";
import { checkIsTheApi, readLiveCollection, type LiveCollection } from "./live-reads.ts";
import { toScenario, type Translation } from "./to-scenario.ts";

export interface ImportOptions extends PoliteFetchOptions {
  /** The live service's base URL. */
  from: string;
  /** Collection addresses to import. */
  collections: string[];
  /** The chain the collections must be on (refused otherwise); default whichever they are on. */
  chainId?: number;
  /** Token ids without history in a row that end an item scan (default 10). */
  missRun?: number;
  /** The local API key that may mint more into the imported collections (default "imported-mint-key"). */
  mintKey?: string;
  /** The imported world's "now" (default the wall clock). */
  now?: Date;
}

export interface Imported extends Translation {
  /** Every URL read, in order: what the fidelity report compares. */
  reads: LiveAnswer[];
  collections: LiveCollection[];
  counts: PoliteFetcher["counts"];
  /** What the endpoints do not reveal, and the default each got. */
  defaults: Record<string, string>;
}

export const DEFAULT_MINT_KEY = "imported-mint-key";

/**
 * Reads live collections through the API's four read endpoints (and each item's metadata) and makes them a world in
 * the scenario format. Throws a `StartError` (`IMPORT_COLLECTION`, exit 1; `IMPORT_UPSTREAM`, exit 2).
 */
export async function importCollections(options: ImportOptions): Promise<Imported> {
  const base = options.from.replace(/\/+$/, "");
  const fetcher = new PoliteFetcher(options);
  await checkIsTheApi(fetcher, base);
  const reads: LiveAnswer[] = [];
  const collections: LiveCollection[] = [];
  for (const address of options.collections) {
    const live = await readLiveCollection(fetcher, base, address, options.missRun ?? 10, reads);
    if (options.chainId !== undefined && live.collection.chainId !== options.chainId)
      throw new StartError(
        START_ERRORS.IMPORT_COLLECTION,
        `collection ${address} is on chain ${live.collection.chainId}, not on chain ${options.chainId} (--chain-id)`,
      );
    collections.push(live);
  }
  const now = options.now ?? new Date(Math.floor(Date.now() / 1000) * 1000);
  const mintKey = options.mintKey ?? DEFAULT_MINT_KEY;
  return {
    ...toScenario(collections, { now, mintKey }),
    reads,
    collections,
    counts: fetcher.counts,
    defaults: {
      "who may mint": `the local API key '${mintKey}' (--mint-key), whose account is a minter of every imported collection`,
      now: `${now.toISOString()} (--now): volumes are measured against it`,
      "the currency's USD price": "the simulator's price for the chain's native coin, 1 for the stablecoin",
    },
  };
}
