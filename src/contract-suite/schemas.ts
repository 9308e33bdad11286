import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { createAjv, describeErrors, dottedPath } from "../schemas/ajv.ts";

const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * What is wrong with a body by one of the server's own response schemas, checked strictly: no coercion, no defaults.
 * Each is compiled once, in an Ajv of its own (several embed the same $id'd ones).
 */
export function bodyProblems(schema: TSchema, body: unknown): string[] {
  const validate = compiled.get(schema) ?? compiled.set(schema, createAjv().compile(schema)).get(schema)!;
  return validate(body) ? [] : describeErrors(validate.errors, { path: dottedPath("body") });
}
