import type { Address } from "viem";
import type { ReadModels } from "./models.ts";

/** One chain's read models, as of a sync just made. */
export interface ModelsRead {
  models: ReadModels;
}

/**
 * Where a collection address was found: on the chain asked about (`among` the chains looked at, the first holding it),
 * only on another one, or nowhere.
 */
export type CollectionLookup<Read extends ModelsRead = ModelsRead> =
  { found: Read; among: Read[] } | { elsewhere: number } | { unknown: true };

/**
 * What the answers are read from: every chain served, its read models brought up to date before they are handed out.
 * The simulator's chains (`ChainRegistry`), or the MSW handlers' world, folded from its logs.
 */
export interface ReadSource {
  /** The chains served, by id, in the order they are served. */
  ids(): number[];
  /** Every chain's read models (only `chainId`'s when given). */
  read(chainId?: number): Promise<ModelsRead[]>;
  /** The chain a collection lives on (among `chainId`'s, when given). */
  findCollection(address: Address, chainId?: number): Promise<CollectionLookup>;
  /** Resolves once every index holds its items, balances and histories. */
  whole(): Promise<void>;
}

/** The first of `among` that holds the collection, with `among`; undefined if none does. */
export function holding<Read extends ModelsRead>(
  among: Read[],
  address: Address,
): { found: Read; among: Read[] } | undefined {
  const found = among.find(({ models }) => models.collections.has(address));
  return found && { found, among };
}
