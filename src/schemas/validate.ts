import type { AnySchema, SchemaValidateFunction, ValidateFunction } from "ajv";
import type { Static, TSchema } from "@sinclair/typebox";
import { apiError, ERRORS } from "../core/errors.ts";
import { createAjv, describeErrors, dottedPath } from "./ajv.ts";

// Requests get defaults filled in; query strings and path parameters are typed from text. Each error keeps its
// schema (`verbose`), so an unknown field is answered with the known one nearest to it.
const jsonRequests = createAjv({ coerceTypes: false, useDefaults: true, verbose: true });
const textRequests = createAjv({ coerceTypes: true, useDefaults: true, verbose: true });
const responses = createAjv({ coerceTypes: false, useDefaults: false });

export type RequestPart = "body" | "query" | "path";

/** A checker for one part of a request: it answers the typed value or throws a 400 naming every problem. */
export function requestValidator<T extends TSchema>(schema: T, part: RequestPart): (input: unknown) => Static<T> {
  const validate = (part === "body" ? jsonRequests : textRequests).compile(schema);
  const numbers = part === "body" ? new Map<string, NumberKind>() : numericFields(schema);
  return (input) => {
    const value = part === "body" ? input : { ...(input as object) };
    if (numbers.size > 0) refuseNonDecimal(value as Record<string, unknown>, numbers, part);
    if (validate(value)) return value as Static<T>;
    const errors = describeErrors(validate.errors, { path: dottedPath(part) });
    throw apiError(ERRORS.INVALID_REQUEST, { part }, { errors });
  };
}

type NumberKind = "integer" | "number";
const DECIMAL: Record<NumberKind, RegExp> = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(\.[0-9]+)?$/ };

/**
 * The fields of a flat text part (query, path) that are numbers; Ajv's coercion alone would read `0x10`, `1e1`, ` 2` or
 * `` as numbers.
 */
function numericFields(schema: TSchema): Map<string, NumberKind> {
  const kinds = new Map<string, NumberKind>();
  for (const [name, field] of Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {})) {
    const types = [field, ...((field.anyOf as TSchema[] | undefined) ?? [])].map((branch) => branch.type);
    if (types.includes("integer")) kinds.set(name, "integer");
    else if (types.includes("number")) kinds.set(name, "number");
  }
  return kinds;
}

/** Text numbers must be plain decimal digits, so every client reads the same value from them. */
function refuseNonDecimal(value: Record<string, unknown>, numbers: Map<string, NumberKind>, part: RequestPart): void {
  const problems = [...numbers]
    .filter(([name, kind]) => typeof value[name] === "string" && !DECIMAL[kind].test(value[name] as string))
    .map(
      ([name, kind]) =>
        `${part}.${name} must be ${kind === "integer" ? "a whole number" : "a number"} in plain decimal digits, got ` +
        `'${value[name]}'`,
    );
  if (problems.length > 0) throw apiError(ERRORS.INVALID_REQUEST, { part }, { errors: problems });
}

/**
 * A checker for a response body; a failure is a bug in the simulator, so it throws loudly.
 *
 * Every response is checked against its whole schema. The parts the read models hand
 * out (events, collections) are frozen records that never change once made, so a
 * frozen part that passed before is recognised by identity and not walked again.
 * A part that is not frozen may have changed since, so it is walked every time.
 */
export function responseValidator<T extends TSchema>(schema: T): (body: Static<T>) => Static<T> {
  // A schema with an $id is compiled once: several operations may answer it.
  const validate =
    compiledResponses.get(schema) ??
    compiledResponses.set(schema, responses.compile(withPartsCheckedOnce(schema, true) as AnySchema)).get(schema)!;
  return (body) => {
    if (validate(body)) return body;
    const problems = describeErrors(validate.errors, { path: dottedPath("response") }).join("; ");
    throw new Error(`response failed its schema ${schema.$id ?? ""}: ${problems}`);
  };
}

const compiledResponses = new WeakMap<TSchema, ValidateFunction>();

/** The schemas (by $id) of the immutable parts of responses: flat records, so freezing the record freezes the part. */
const PARTS_CHECKED_ONCE = new Set(["ItemEvent", "Collection", "CollectionSummary"]);
const partValidators = new Map<string, ValidateFunction>();
const passed = new WeakMap<object, Set<string>>();

/** Checks a part against its own schema unless this very frozen object passed before. */
const checkPartOnce: SchemaValidateFunction = (id: string, data: unknown, _schema, where) => {
  const frozen = typeof data === "object" && data !== null && Object.isFrozen(data);
  if (frozen && passed.get(data)?.has(id)) return true;
  const validate = partValidators.get(id)!;
  if (!validate(data)) {
    const prefix = where?.instancePath ?? "";
    checkPartOnce.errors = (validate.errors ?? []).map((error) => ({
      ...error,
      instancePath: prefix + error.instancePath,
    }));
    return false;
  }
  if (frozen) passed.set(data, (passed.get(data) ?? new Set()).add(id));
  return true;
};

responses.addKeyword({ keyword: "checkedOnce", schemaType: "string", errors: true, validate: checkPartOnce });

/** A copy of `schema` in which each immutable part is a `checkedOnce` reference to its own compiled validator. */
function withPartsCheckedOnce(schema: unknown, isRoot = false): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => withPartsCheckedOnce(entry));
  if (typeof schema !== "object" || schema === null) return schema;
  const id = (schema as { $id?: string }).$id;
  if (!isRoot && id && PARTS_CHECKED_ONCE.has(id)) {
    if (!partValidators.has(id)) partValidators.set(id, responses.compile(schema));
    return { checkedOnce: id };
  }
  // A nested $id would be registered with the whole: compiling that part later as a response of
  // its own (a list of fault rules, then one rule) would then clash with it.
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$id" && !isRoot) continue;
    copy[key] = key === "$id" ? value : withPartsCheckedOnce(value);
  }
  return copy;
}
