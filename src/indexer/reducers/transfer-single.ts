import type { ArgsOf } from "../decode.ts";
import { appendHistory, lower, moveBalance, transferEvent } from "../history.ts";
import type { ChainModels, LogPosition } from "../models.ts";

/** A mint (from zero), burn (to zero) or transfer of one token id. */
export function transferSingle(models: ChainModels, args: ArgsOf<"TransferSingle">, at: LogPosition): void {
  if (!models.collections.has(at.address)) return;
  const move = { tokenId: args.id, from: lower(args.from), to: lower(args.to), amount: args.value };
  moveBalance(models, at.address, move.tokenId, move.from, move.to, move.amount);
  appendHistory(models, at.address, move.tokenId, transferEvent(models, "TransferSingle", move, at));
}
