import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { createAjv, describeErrors, dottedPath } from "../schemas/ajv.ts";
import { CollectionResponse, CollectionsResponse } from "../schemas/collection.ts";
import { ErrorBody } from "../schemas/error.ts";
import { ItemEventsResponse } from "../schemas/item-event.ts";
import { MintResponse } from "../schemas/item.ts";

/** Checks a body against one of the server's own response schemas, strictly: no coercion, no defaults. */
export type BodyCheck = (body: unknown) => string[];

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** A response schema's validator, compiled once: strictly, in an Ajv of its own (several embed the same $id'd ones). */
export function responseValidator(schema: TSchema): ValidateFunction {
  return compiled.get(schema) ?? compiled.set(schema, createAjv().compile(schema)).get(schema)!;
}

function bodyCheck(schema: TSchema): BodyCheck {
  return (body) => {
    const validate = responseValidator(schema);
    return validate(body) ? [] : describeErrors(validate.errors, { path: dottedPath("body") });
  };
}

export const bodyChecks = {
  collections: bodyCheck(CollectionsResponse),
  collection: bodyCheck(CollectionResponse),
  itemEvents: bodyCheck(ItemEventsResponse),
  mint: bodyCheck(MintResponse),
  error: bodyCheck(ErrorBody),
};
