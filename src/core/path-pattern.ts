/** A path pattern as fault rules, the request log's filter and the package's verify take it: `/api/v2/item/*` matches one segment, `/api/v2/**` any rest. */
export function pathPattern(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*/g, "\u0000")
    .replace(/\*/g, "[^/]*")
    .replace(/\u0000/g, ".*");
  return new RegExp(`^${escaped}$`);
}
