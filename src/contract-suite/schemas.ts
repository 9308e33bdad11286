import type { TSchema } from "@sinclair/typebox";
import { createAjv, describeErrors, dottedPath } from "../schemas/ajv.ts";
import { CollectionResponse, CollectionsResponse } from "../schemas/collection.ts";
import { ErrorBody } from "../schemas/error.ts";
import { ItemEventsResponse } from "../schemas/item-event.ts";
import { MintResponse } from "../schemas/item.ts";

/** Checks a body against one of the server's own response schemas, strictly: no coercion, no defaults. */
export type BodyCheck = (body: unknown) => string[];

function bodyCheck(schema: TSchema): BodyCheck {
  // One Ajv per schema: several response schemas embed the same $id'd sub-schemas.
  const validate = createAjv().compile(schema);
  return (body) => (validate(body) ? [] : describeErrors(validate.errors, { path: dottedPath("body") }));
}

export const bodyChecks = {
  collections: bodyCheck(CollectionsResponse),
  collection: bodyCheck(CollectionResponse),
  itemEvents: bodyCheck(ItemEventsResponse),
  mint: bodyCheck(MintResponse),
  error: bodyCheck(ErrorBody),
};
