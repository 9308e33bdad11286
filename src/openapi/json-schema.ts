import type { TSchema } from "@sinclair/typebox";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonSchema = { [key: string]: Json };

/**
 * Where a schema is used. The server fills request defaults before it validates,
 * so in a request a property with a default is optional; in a response it is always there.
 */
export type Direction = "request" | "response";

/**
 * Turns TypeBox schemas into plain JSON Schema for an OpenAPI document: named
 * schemas (given names, or their $id) become components reached by $ref, TypeBox's
 * symbol keys drop out, and a union of string constants reads as an enum.
 * Convert the responses first: a request form that differs from a response
 * schema of the same name is named `<Name>Input`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  #names: Map<object, string>;
  #responseNames = new Set<string>();

  constructor(names: Map<TSchema, string>) {
    this.#names = new Map(names);
  }

  /** A $ref to the schema when it is named, else the schema inline. */
  use(node: unknown, direction: Direction): Json {
    if (Array.isArray(node)) return node.map((item) => this.use(item, direction));
    if (node === null || typeof node !== "object") return node as Json;
    const name = this.#componentName(node, direction);
    if (name === undefined) return this.#convertObject(node, direction);
    if (!(name in this.schemas)) {
      this.schemas[name] = {}; // reserved first: a schema may refer to itself
      this.schemas[name] = this.#convertObject(node, direction) as JsonSchema;
      if (direction === "response") this.#responseNames.add(name);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  #convertObject(node: object, direction: Direction): Json {
    const plain: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) if (key !== "$id") plain[key] = this.use(value, direction);
    if (direction === "request") dropDefaultedFromRequired(node, plain);
    return constUnionAsEnum(plain);
  }

  #componentName(node: object, direction: Direction): string | undefined {
    const id = (node as { $id?: unknown }).$id;
    const name = this.#names.get(node) ?? (typeof id === "string" ? id : undefined);
    if (name === undefined || direction === "response") return name;
    return this.#responseNames.has(name) && hasDefaultedRequired(node) ? `${name}Input` : name;
  }
}

export function hasDefault(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && "default" in schema;
}

function dropDefaultedFromRequired(source: object, plain: JsonSchema): void {
  const { required, properties } = source as { required?: string[]; properties?: Record<string, unknown> };
  if (!Array.isArray(required) || !properties) return;
  const kept = required.filter((name) => !hasDefault(properties[name]));
  if (kept.length) plain.required = kept;
  else delete plain.required;
}

/** Whether any object in the schema (an array's entries are its values) requires a property that has a default. */
function hasDefaultedRequired(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  const { required, properties } = node as { required?: unknown; properties?: Record<string, unknown> };
  if (Array.isArray(required) && properties && required.some((name) => hasDefault(properties[name]))) return true;
  return Object.values(node).some(hasDefaultedRequired);
}

/**
 * `anyOf: [{const: "a", type: "string"}, …]` says the same as `type: string, enum: [a, …]`, which documentation tools
 * show better.
 */
function constUnionAsEnum(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return schema;
  const consts = branches.map((branch) => branch as JsonSchema);
  const type = consts[0]!.type;
  const simple = consts.every(
    (branch) =>
      "const" in branch &&
      branch.type === type &&
      Object.keys(branch).every((key) => key === "const" || key === "type"),
  );
  if (!simple || typeof type !== "string") return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { type, enum: consts.map((branch) => branch.const!), ...rest };
}
