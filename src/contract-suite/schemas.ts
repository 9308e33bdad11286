import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { createAjv, describeErrors, dottedPath } from "../schemas/ajv.ts";

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** A response schema's validator, compiled once: strictly, in an Ajv of its own (several embed the same $id'd ones). */
export function responseValidator(schema: TSchema): ValidateFunction {
  return compiled.get(schema) ?? compiled.set(schema, createAjv().compile(schema)).get(schema)!;
}

/** What is wrong with a body by one of the server's own response schemas, checked strictly: no coercion, no defaults. */
export function bodyProblems(schema: TSchema, body: unknown): string[] {
  const validate = responseValidator(schema);
  return validate(body) ? [] : describeErrors(validate.errors, { path: dottedPath("body") });
}
