import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header carries `Bearer <token>`, compared in constant time (both sides
 * hashed first, so neither the bytes nor the length of the token leak through the answer's timing).
 */
export function bearerMatches(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(authorization ?? ""), digest(`Bearer ${token}`));
}
