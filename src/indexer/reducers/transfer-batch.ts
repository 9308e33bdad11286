import type { ArgsOf } from "../decode.ts";
import { moveBalance, placeOf, recordActivity } from "../record.ts";
import type { ChainModels, LogPosition, TransferFact } from "../models.ts";
import { lowerAddress } from "../../core/formats.ts";

/** One activity fact per token id the batch moved (a repeated id counts once, amounts added). */
export function transferBatch(models: ChainModels, args: ArgsOf<"TransferBatch">, at: LogPosition): TransferFact[] {
  if (!models.collections.has(at.address)) return [];
  const amounts = new Map<bigint, bigint>();
  args.ids.forEach((id, i) => amounts.set(id, (amounts.get(id) ?? 0n) + args.values[i]!));
  const from = lowerAddress(args.from);
  const to = lowerAddress(args.to);
  const place = placeOf(at);
  return [...amounts].map(([tokenId, amount]) => {
    moveBalance(models, at.address, tokenId, from, to, amount);
    return recordActivity(models, {
      kind: "TransferBatch",
      ...place,
      collection: at.address,
      tokenId,
      from,
      to,
      amount,
    });
  });
}
