import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
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
    throw new ApiError(400, "VALIDATION_FAILED", `The request ${part} is invalid`, describeErrors(part, validate));
  };
}

/** A checker for a response body; a failure is a bug in the simulator, so it throws loudly. */
export function responseValidator<T extends TSchema>(schema: T): (body: Static<T>) => Static<T> {
  const validate = responses.compile(schema);
  return (body) => {
    if (validate(body)) return body;
    const problems = describeErrors("response", validate).join("; ");
    throw new Error(`response failed its schema ${schema.$id ?? ""}: ${problems}`);
  };
}

function describeErrors(part: string, validate: ValidateFunction): string[] {
  const lines = (validate.errors ?? []).filter(isReportable).map((error) => describe(part, error));
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
