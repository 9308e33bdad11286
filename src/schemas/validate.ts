import { Ajv, type AnySchema, type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Static, TSchema } from "@sinclair/typebox";
import { ApiError } from "../errors.ts";

function makeAjv(options: { coerceTypes: boolean; useDefaults: boolean }) {
  const ajv = new Ajv({ allErrors: true, strict: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

// Requests get defaults filled in; query strings and path parameters are typed from text.
const jsonRequests = makeAjv({ coerceTypes: false, useDefaults: true });
const textRequests = makeAjv({ coerceTypes: true, useDefaults: true });
const responses = makeAjv({ coerceTypes: false, useDefaults: false });

export type RequestPart = "body" | "query" | "path";

/** A checker for one part of a request: it answers the typed value or throws a 400 naming every problem. */
export function requestValidator<T extends TSchema>(schema: T, part: RequestPart): (input: unknown) => Static<T> {
  const validate = (part === "body" ? jsonRequests : textRequests).compile(schema);
  return (input) => {
    const value = part === "body" ? input : { ...(input as object) };
    if (validate(value)) return value as Static<T>;
    throw new ApiError(400, "VALIDATION_FAILED", `The request ${part} is invalid`, describeErrors(part, validate.errors));
  };
}

/**
 * A checker for a response body; a failure is a bug in the simulator, so it throws loudly.
 *
 * Every response is checked against its whole schema. The parts the read models hand
 * out (events, collections) never change once made, so a part is frozen the first
 * time it passes and not walked again: a later response carrying the same object is
 * still checked, at the cost of a lookup. A change to a frozen part throws.
 */
export function responseValidator<T extends TSchema>(schema: T): (body: Static<T>) => Static<T> {
  const validate = responses.compile(withPartsCheckedOnce(schema, true) as AnySchema);
  return (body) => {
    if (validate(body)) return body;
    const problems = describeErrors("response", validate.errors).join("; ");
    throw new Error(`response failed its schema ${schema.$id ?? ""}: ${problems}`);
  };
}

/** The schemas (by $id) of the immutable parts of responses. */
const PARTS_CHECKED_ONCE = new Set(["ItemEvent", "Collection", "CollectionSummary"]);
const partValidators = new Map<string, ValidateFunction>();
const passed = new WeakMap<object, Set<string>>();

/** Checks a part against its own schema unless this very object passed before; a part that passes is frozen. */
const checkPartOnce: SchemaValidateFunction = (id: string, data: unknown, _schema, where) => {
  const isObject = typeof data === "object" && data !== null;
  if (isObject && passed.get(data)?.has(id)) return true;
  const validate = partValidators.get(id)!;
  if (!validate(data)) {
    const prefix = where?.instancePath ?? "";
    checkPartOnce.errors = (validate.errors ?? []).map((error) => ({ ...error, instancePath: prefix + error.instancePath }));
    return false;
  }
  if (isObject) {
    passed.set(data, (passed.get(data) ?? new Set()).add(id));
    deepFreeze(data);
  }
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
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === "$id" ? value : withPartsCheckedOnce(value);
  return copy;
}

function deepFreeze(value: object): void {
  Object.freeze(value);
  for (const child of Object.values(value)) if (typeof child === "object" && child !== null && !Object.isFrozen(child)) deepFreeze(child);
}

function describeErrors(part: string, errors: ErrorObject[] | null | undefined): string[] {
  const lines = (errors ?? []).filter(isReportable).map((error) => describe(part, error));
  return [...new Set(lines)];
}

// A union's failed branches repeat what the branch that matters already says.
function isReportable(error: ErrorObject): boolean {
  return !["anyOf", "if"].includes(error.keyword);
}

function describe(part: string, error: ErrorObject): string {
  const where = part + error.instancePath.replaceAll("/", ".");
  switch (error.keyword) {
    case "additionalProperties":
      return `${where}: unknown field '${error.params.additionalProperty}'`;
    case "required":
      return `${where}: missing required field '${error.params.missingProperty}'`;
    case "enum":
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).join(", ")}`;
    case "const":
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return `${where} ${error.message}`;
  }
}
