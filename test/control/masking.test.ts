import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskSecrets } from "../../src/control/masking.ts";

// Whatever a secret is and wherever it stands, the request log never shows it whole.

const params = { numRuns: 200 };
const secret = fc.string({ minLength: 9, maxLength: 60, unit: "grapheme-ascii" });
const name = fc.constantFrom(
  "apiKey",
  "walletKey",
  "adminToken",
  "token",
  "secret",
  "password",
  "api_key",
  "privateKey",
);

describe("masking secrets", () => {
  it("a secret field of a JSON body, at any depth", () => {
    fc.assert(
      fc.property(name, secret, fc.jsonValue(), (field, value, other) => {
        const text = JSON.stringify({ other, nested: [{ [field]: value }] });
        const shown = maskSecrets(text, []);
        expect(shown).not.toContain(JSON.stringify(value).slice(1, -1));
        expect(JSON.parse(shown).nested[0][field]).toBe(`${value.slice(0, 4)}…`);
      }),
      params,
    );
  });

  it("a secret parameter of a query or form", () => {
    fc.assert(
      fc.property(name, secret, (field, value) => {
        const text = new URLSearchParams({ a: "1", [field]: value, b: "2" }).toString();
        const shown = maskSecrets(text, []);
        expect(new URLSearchParams(shown).get(field)).toBe(`${value.slice(0, 4)}…`);
        expect(new URLSearchParams(shown).get("b")).toBe("2");
      }),
      params,
    );
  });

  it("a known API key anywhere, under any name", () => {
    const key = fc.stringMatching(/^[a-z0-9-]{9,30}$/);
    fc.assert(
      fc.property(key, fc.string(), fc.string(), (apiKey, before, after) => {
        const shown = maskSecrets(`${before}${JSON.stringify({ owner: apiKey, minters: [apiKey] })}${after}`, [apiKey]);
        expect(shown).not.toContain(apiKey);
      }),
      params,
    );
  });

  it("leaves the rest alone: token ids, a key's neighbours", () => {
    expect(maskSecrets('{"tokenId":"12","tokenIds":[1],"name":"apiKey"}', [])).toBe(
      '{"tokenId":"12","tokenIds":[1],"name":"apiKey"}',
    );
  });
});
