import type { ArgsOf } from "../decode.ts";
import { appendHistory, lower, moveBalance, transferEvent } from "../history.ts";
import type { ChainModels, LogPosition } from "../models.ts";

/** One history event per token id the batch moved (a repeated id counts once, amounts added). */
export function transferBatch(models: ChainModels, args: ArgsOf<"TransferBatch">, at: LogPosition): void {
  if (!models.collections.has(at.address)) return;
  const amounts = new Map<bigint, bigint>();
  args.ids.forEach((id, i) => amounts.set(id, (amounts.get(id) ?? 0n) + args.values[i]!));
  const from = lower(args.from);
  const to = lower(args.to);
  for (const [tokenId, amount] of amounts) {
    moveBalance(models, at.address, tokenId, from, to, amount);
    appendHistory(models, at.address, tokenId, transferEvent(models, "TransferBatch", { tokenId, from, to, amount }, at));
  }
}
