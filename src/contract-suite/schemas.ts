import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TSchema } from "@sinclair/typebox";
import { CollectionResponse, CollectionsResponse } from "../schemas/collection.ts";
import { ErrorBody } from "../schemas/error.ts";
import { ItemEventsResponse } from "../schemas/item-event.ts";
import { MintResponse } from "../schemas/mint.ts";

/** Checks a body against one of the server's own response schemas, strictly: no coercion, no defaults. */
export type BodyCheck = (body: unknown) => string[];

function bodyCheck(schema: TSchema): BodyCheck {
  // One Ajv per schema: several response schemas embed the same $id'd sub-schemas.
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  return (body) => (validate(body) ? [] : describeErrors(validate));
}

function describeErrors(validate: ValidateFunction): string[] {
  const lines = (validate.errors ?? [])
    .filter((error) => !["anyOf", "if"].includes(error.keyword))
    .map((error) => {
      const where = `body${error.instancePath.replaceAll("/", ".")}`;
      if (error.keyword === "additionalProperties") return `${where} has an unknown field '${error.params.additionalProperty}'`;
      if (error.keyword === "required") return `${where} lacks the required field '${error.params.missingProperty}'`;
      return `${where} ${error.message}`;
    });
  return [...new Set(lines)];
}

export const bodyChecks = {
  collections: bodyCheck(CollectionsResponse),
  collection: bodyCheck(CollectionResponse),
  itemEvents: bodyCheck(ItemEventsResponse),
  mint: bodyCheck(MintResponse),
  error: bodyCheck(ErrorBody),
};
