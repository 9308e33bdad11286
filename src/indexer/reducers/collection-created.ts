import type { ArgsOf } from "../decode.ts";
import type { ChainModels, CollectionRecord, LogPosition } from "../models.ts";
import { hexToText, lowerAddress } from "../../core/formats.ts";

/** The factory deployed a collection: from now on its logs are followed. */
export function collectionCreated(
  models: ChainModels,
  args: ArgsOf<"CollectionCreated">,
  at: LogPosition,
): CollectionRecord | undefined {
  if (at.address !== models.facts.factory) return;
  const address = lowerAddress(args.collection);
  const record: CollectionRecord = {
    chainId: models.facts.chainId,
    address,
    owner: lowerAddress(args.owner),
    name: args.name,
    uri: args.uri,
    createdAt: at.timestamp,
    metadata: hexToText(args.metadata),
  };
  models.collections.set(address, record);
  return record;
}
