import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an Authorization header carries `Bearer <token>` (the scheme in any case, as RFC 9110
 * has it), compared in constant time (both sides hashed first, so neither the bytes nor the
 * length of the token leak through the answer's timing). An empty token matches nothing.
 */
export function bearerMatches(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  // The rest of the header, line breaks and all (the s flag).
  // Stryker disable next-line StringLiteral: a header that is not there and any text without the scheme are refused alike
  const presented = /^bearer +(.*)/is.exec(authorization ?? "")?.[1];
  // Stryker disable next-line StringLiteral: no text without the scheme can equal `Bearer <token>`: "" stands for any
  const absent = "";
  return timingSafeEqual(digest(presented === undefined ? absent : `Bearer ${presented}`), digest(`Bearer ${token}`));
}
