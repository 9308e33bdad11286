import type { FaultBodyChange } from "../schemas/fault-rule.ts";

// What a fault rule makes of an answer's body: the route's own answer, broken or drifted, as a client may one day
// read it from a server that changed or failed half-way.

/** The body changes that edit the route's answer (the others give a body whole). */
export const ANSWER_EDITS = ["malformed", "truncate", "drop", "rename", "retype", "add"] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The route's answer, as bytes, changed as `change` says; `json`: whether the answer is JSON. */
export function changedAnswer(answer: Buffer, json: boolean, change: FaultBodyChange): Buffer {
  let bytes = answer;
  const value = json && (change.drop || change.rename || change.retype || change.add) ? parsed(answer) : undefined;
  if (value !== undefined) {
    for (const path of change.drop ?? [])
      visit(value, path, (parent, key) => (Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key]));
    for (const [path, name] of Object.entries(change.rename ?? {}))
      visit(value, path, (parent, key) => renameField(parent, key, name));
    for (const [path, type] of Object.entries(change.retype ?? {}))
      visit(value, path, (parent, key) => {
        const fields = parent as Record<string, Json>;
        fields[key] = asType(fields[key]!, type);
      });
    for (const [path, added] of Object.entries(change.add ?? {}))
      visit(value, path, (parent, key) => !Array.isArray(parent) && (parent[key] = added as Json), true);
    bytes = Buffer.from(JSON.stringify(value));
  }
  if (json && change.malformed) bytes = malformed(bytes);
  if (change.truncate !== undefined && change.truncate < bytes.length) bytes = bytes.subarray(0, change.truncate);
  return bytes;
}

function parsed(answer: Buffer): Json | undefined {
  try {
    return JSON.parse(answer.toString("utf8")) as Json;
  } catch {
    return undefined;
  }
}

/**
 * Calls `act` with each object or array the path's last key is in, and that key (`*`: each of its keys). A key the
 * answer does not have is passed over, but for `add`, whose last key is new.
 */
function visit(
  value: Json,
  path: string,
  act: (parent: Json[] | { [key: string]: Json }, key: string) => void,
  lastIsNew = false,
): void {
  const keys = path.split(".");
  const walk = (node: Json, depth: number): void => {
    if (node === null || typeof node !== "object") return;
    const key = keys[depth]!;
    // Last to first: removing an element of an array leaves the indexes before it as they were.
    const children = key === "*" ? Object.keys(node).reverse() : [key];
    for (const child of children) {
      if (depth === keys.length - 1) {
        if (lastIsNew || child in node) act(node, child);
      } else walk((node as Record<string, Json>)[child] ?? null, depth + 1);
    }
  };
  walk(value, 0);
}

/** The field under its new name, where it stood among the others. */
function renameField(parent: Json[] | { [key: string]: Json }, key: string, name: string): void {
  if (Array.isArray(parent) || key === name) return;
  const entries = Object.entries(parent).map(([field, value]) => [field === key ? name : field, value] as const);
  for (const field of Object.keys(parent)) delete parent[field];
  Object.assign(parent, Object.fromEntries(entries));
}

/** A value as another JSON type: 12 as a string is "12", "12" as a number 12 (0 when it reads as none). */
function asType(value: Json, type: NonNullable<FaultBodyChange["retype"]>[string]): Json {
  switch (type) {
    case "string":
      return typeof value === "string" ? value : JSON.stringify(value);
    case "number": {
      if (typeof value === "number") return value;
      const number = typeof value === "string" ? Number(value.trim() === "" ? NaN : value) : Number(value === true);
      return Number.isFinite(number) ? number : 0;
    }
    case "boolean":
      return typeof value === "boolean" ? value : Boolean(value);
    case "null":
      return null;
    case "array":
      return Array.isArray(value) ? value : [value];
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value) ? value : { value };
  }
}

/** JSON no strict parser takes: a comma before its last closing bracket (`{"a":1,}`). */
function malformed(bytes: Buffer): Buffer {
  const text = bytes.toString("utf8");
  const last = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  return Buffer.from(last < 0 ? `${text},` : `${text.slice(0, last)},${text.slice(last)}`);
}
