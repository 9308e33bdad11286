import { describe, expect, it } from "vitest";
import { bearerMatches } from "../../src/access/token.ts";

describe("the admin token", () => {
  it("matches only `Bearer <token>`, the scheme in any case, the token exactly (compared in constant time, on hashes)", () => {
    for (const header of ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Bearer  s3cret"])
      expect(bearerMatches(header, "s3cret"), header).toBe(true);
    for (const header of [
      "Bearer s3creT",
      "Bearer s3cret ",
      "Basic s3cret",
      "Bearers3cret",
      "s3cret",
      "Bearer ",
      "",
      undefined,
      // The scheme must open the header: not a word that ends in it.
      "NotBearer s3cret",
      "x Bearer s3cret",
      "Bearer x\nBearer s3cret",
    ])
      expect(bearerMatches(header, "s3cret"), String(header)).toBe(false);
  });

  it("takes a token with spaces, tabs or line breaks in it whole", () => {
    expect(bearerMatches("Bearer two words", "two words")).toBe(true);
    expect(bearerMatches("Bearer line\nbreak", "line\nbreak")).toBe(true);
    expect(bearerMatches("Bearer line\nbreak", "line")).toBe(false);
  });

  it("matches nothing without a token, nor a header without one", () => {
    expect(bearerMatches("Bearer undefined", undefined)).toBe(false);
    expect(bearerMatches("Bearer ", "")).toBe(false);
    expect(bearerMatches("", "")).toBe(false);
    expect(bearerMatches(undefined, "undefined")).toBe(false);
    expect(bearerMatches("Basic undefined", "undefined")).toBe(false);
  });
});
