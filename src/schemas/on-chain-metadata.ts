import { Type, type Static } from "@sinclair/typebox";
import { Named } from "./common.ts";

// What travels on chain beside the chain's own facts: an item's description (emitted in
// Collection's ItemDescribed) and a collection's (in the factory's CollectionCreated), each as
// compact JSON. The chain itself tells the rest (supply, maximum supply, royalty, stackable, owner,
// name, uri, when): it is never written twice. A field at its default is left out of the JSON.

export { COLLECTION_METADATA_MAX_BYTES, ITEM_METADATA_MAX_BYTES } from "../core/limits.ts";

/** A collection's description as it is on chain. */
export const CollectionDescription = Named("CollectionDescription", {
  description: Type.String({ default: "" }),
  genre: Type.String({ default: "" }),
  image: Type.String({ default: "" }),
  imageHash: Type.String({ default: "" }),
  slug: Type.String({ pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" }),
  website: Type.String({ default: "" }),
  isVerified: Type.Boolean({ default: true }),
});
export type CollectionDescription = Static<typeof CollectionDescription>;
