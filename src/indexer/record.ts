import { zeroAddress, type Address } from "viem";
import { itemKey, type Activity, type ChainModels, type LogPosition } from "./models.ts";

/** The parts of a log's position an activity fact keeps (the emitter is implied by its kind). */
export function placeOf({ blockNumber, logIndex, transactionHash, timestamp }: LogPosition): Omit<LogPosition, "address"> {
  return { blockNumber, logIndex, transactionHash, timestamp };
}

export function recordActivity(models: ChainModels, fact: Activity): void {
  const key = itemKey(fact.collection, fact.tokenId);
  const facts = models.activity.get(key);
  if (facts) facts.push(fact);
  else models.activity.set(key, [fact]);
}

export function moveBalance(models: ChainModels, collection: Address, tokenId: bigint, from: Address, to: Address, amount: bigint): void {
  const key = itemKey(collection, tokenId);
  let holders = models.balances.get(key);
  if (!holders) models.balances.set(key, (holders = new Map()));
  if (from !== zeroAddress) setBalance(holders, from, (holders.get(from) ?? 0n) - amount);
  if (to !== zeroAddress) setBalance(holders, to, (holders.get(to) ?? 0n) + amount);
}

function setBalance(holders: Map<Address, bigint>, holder: Address, balance: bigint): void {
  if (balance === 0n) holders.delete(holder);
  else holders.set(holder, balance);
}
