import { Ajv, type ErrorObject, type Options } from "ajv";
import addFormats from "ajv-formats";
import { nearestName } from "./nearest-name.ts";

/**
 * An Ajv instance with the formats the schemas use (`date-time`, …). Every schema of the
 * project is compiled by one of these; `options` adds what a use needs (defaults, coercion).
 * The schemas are the project's own, so they are not checked against the JSON Schema
 * meta-schema on every compile (that alone cost the first request ~150 ms);
 * test/schemas/well-formed.test.ts checks each of them against it once.
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

/** `/events/2/chainId` → `events.2.chainId` after the prefix: `response.events.2.chainId`. */
export const dottedPath = (prefix: string) => (pointer: string) => prefix + pointer.replaceAll("/", ".");

/** `/collections/3/chainId` → `collections[3].chainId`; the document itself is `(root)`. */
export function bracketPath(pointer: string): string {
  let path = "";
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    path += /^[0-9]+$/.test(key) ? `[${key}]` : path ? `.${key}` : key;
  }
  return path || "(root)";
}

export interface DescribeOptions {
  /** How an error's instance path is written: `dottedPath("body")`, or `bracketPath`. */
  path: (instancePath: string) => string;
  /** A wording of its own for some errors; undefined falls back to the common one. */
  describe?: (error: ErrorObject, where: string) => string | undefined;
}

/**
 * One line per problem, each once. The failed branches of a union or a condition are left
 * out: they repeat what the branch that matters already says.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, options: DescribeOptions): string[] {
  const lines = (errors ?? [])
    .filter((error) => !["anyOf", "oneOf", "if"].includes(error.keyword))
    .map((error) => {
      const where = options.path(error.instancePath);
      return options.describe?.(error, where) ?? describeError(error, where);
    });
  return [...new Set(lines)];
}

function describeError(error: ErrorObject, where: string): string {
  switch (error.keyword) {
    case "additionalProperties": {
      const name = error.params.additionalProperty as string;
      // Known where the validator keeps each error's schema (Ajv's `verbose`: the request validators).
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const meant = nearestName(name, known);
      return `${where}: unknown field '${name}'${meant ? ` (did you mean '${meant}'?)` : ""}`;
    }
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
