import type { ArgsOf } from "../decode.ts";
import { moveBalance, placeOf, recordActivity } from "../record.ts";
import type { ChainModels, LogPosition, TransferFact } from "../models.ts";
import { lowerAddress } from "../../core/formats.ts";

/** A mint (from zero), burn (to zero) or transfer of one token id. */
export function transferSingle(
  models: ChainModels,
  args: ArgsOf<"TransferSingle">,
  at: LogPosition,
): TransferFact | undefined {
  if (!models.collections.has(at.address)) return;
  const from = lowerAddress(args.from);
  const to = lowerAddress(args.to);
  moveBalance(models, at.address, args.id, from, to, args.value);
  return recordActivity(models, {
    kind: "TransferSingle",
    ...placeOf(at),
    collection: at.address,
    tokenId: args.id,
    from,
    to,
    amount: args.value,
  });
}
