import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { createAjv, describeErrors, dottedPath } from "../../schemas/ajv.ts";
import type { Operation } from "../../schemas/operations.ts";
import { parseJson } from "../http.ts";
import { headerOf } from "./headers.ts";
import type { Draft } from "./valid.ts";

// Whether a generated request is one the operation's schemas accept, read strictly as the
// interface documents it: numbers in plain decimal digits, each parameter once, a JSON body in
// no content coding, and (as HTTP/1.1 requires) a Host header. A request that does not conform must be
// refused; the fuzzer's "negative data" check.

const ajv = createAjv({ useDefaults: true, coerceTypes: false });
const compiled = new WeakMap<TSchema, ValidateFunction>();
const validatorOf = (schema: TSchema) => compiled.get(schema) ?? compiled.set(schema, ajv.compile(schema)).get(schema)!;

/** A parameter's text as its schema types it (decimal digits a number, true/false a boolean). */
export function typed(schema: TSchema | undefined, text: string): unknown {
  const types = [schema, ...((schema?.anyOf as TSchema[] | undefined) ?? [])].map((branch) => branch?.type);
  if (types.includes("integer") && /^-?[0-9]+$/.test(text)) return Number(text);
  if (types.includes("number") && /^-?[0-9]+(\.[0-9]+)?$/.test(text)) return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}

function textPart(schema: TSchema | undefined, entries: [string, string][], part: string): string[] {
  if (!schema) return entries.length ? [`${part} takes no parameters`] : [];
  const seen = new Set<string>();
  const object: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (seen.has(name)) return [`${part}.${name} is given twice`];
    seen.add(name);
    object[name] = typed((schema.properties as Record<string, TSchema>)[name], value);
  }
  const validate = validatorOf(schema);
  return validate(object) ? [] : describeErrors(validate.errors, { path: dottedPath(part) });
}

/** Why the request does not conform to the operation's schemas (empty: it conforms). */
export function nonConformance(operation: Operation, request: Draft): string[] {
  // The key is the server's to judge (401), not the schemas': a stand-in takes its place.
  const query = request.query.filter(([name]) => name !== "apiKey");
  if (operation.query?.properties.apiKey) query.push(["apiKey", "key"]);
  const reasons = [...textPart(operation.params, request.params, "path"), ...textPart(operation.query, query, "query")];
  if (headerOf(request.headers, "host") === "") reasons.push("there is no Host header, which HTTP/1.1 requires");
  if (!operation.body) return reasons;
  const contentType = headerOf(request.headers, "content-type") ?? "";
  const coding = headerOf(request.headers, "content-encoding");
  if (coding) reasons.push(`the body is sent as '${coding}' but is not in that coding`);
  if (!/^application\/json\b/.test(contentType)) reasons.push(`content-type '${contentType}' is not JSON`);
  const body = parseJson(request.body ?? "");
  if (body === undefined) return [...reasons, "the body is not JSON"];
  const validate = validatorOf(operation.body);
  return validate(body) ? reasons : [...reasons, ...describeErrors(validate.errors, { path: dottedPath("body") })];
}
