import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header carries `Bearer <token>` (the scheme in any case, as RFC 9110
 * has it), compared in constant time (both sides hashed first, so neither the bytes nor the
 * length of the token leak through the answer's timing). An empty token matches nothing.
 */
export function bearerMatches(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  const presented = /^bearer +(.*)$/is.exec(authorization ?? "")?.[1];
  return timingSafeEqual(digest(presented === undefined ? "" : `Bearer ${presented}`), digest(`Bearer ${token}`));
}
