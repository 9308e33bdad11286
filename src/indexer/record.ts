import { zeroAddress, type Address } from "viem";
import { itemKey, type Activity, type ChainModels, type LogPosition } from "./models.ts";

/** The parts of a log's position an activity fact keeps (the emitter is implied by its kind). */
export function placeOf({
  blockNumber,
  logIndex,
  transactionHash,
  timestamp,
}: LogPosition): Omit<LogPosition, "address"> {
  return { blockNumber, logIndex, transactionHash, timestamp };
}

/** Adds the fact to its item's activity; answers it (what a reducer folded in). */
export function recordActivity<Fact extends Activity>(models: ChainModels, fact: Fact): Fact {
  const key = itemKey(fact.collection, fact.tokenId);
  const facts = models.activity.get(key);
  if (facts) facts.push(fact);
  else models.activity.set(key, [fact]);
  return fact;
}

export function moveBalance(
  models: ChainModels,
  collection: Address,
  tokenId: bigint,
  from: Address,
  to: Address,
  amount: bigint,
): void {
  const key = itemKey(collection, tokenId);
  let holders = models.balances.get(key);
  if (!holders) models.balances.set(key, (holders = new Map()));
  if (from !== zeroAddress) setBalance(models, collection, holders, from, (holders.get(from) ?? 0n) - amount);
  if (to !== zeroAddress) setBalance(models, collection, holders, to, (holders.get(to) ?? 0n) + amount);
}

function setBalance(
  models: ChainModels,
  collection: Address,
  holders: Map<Address, bigint>,
  holder: Address,
  balance: bigint,
): void {
  const had = holders.has(holder);
  if (balance === 0n) holders.delete(holder);
  else holders.set(holder, balance);
  if (had !== (balance !== 0n) && holder !== models.facts.marketplace)
    countHolder(models, collection, holder, had ? -1 : 1);
}

/**
 * One more (or one fewer) reason for `holder` to count as a holder of `collection`: a nonzero balance, or an open
 * listing.
 */
export function countHolder(models: ChainModels, collection: Address, holder: Address, change: 1 | -1): void {
  let counts = models.holders.get(collection);
  if (!counts) models.holders.set(collection, (counts = new Map()));
  const count = (counts.get(holder) ?? 0) + change;
  if (count === 0) counts.delete(holder);
  else counts.set(holder, count);
}
