import fc from "fast-check";
import { bytesToHex, hexToString } from "viem";
import { expect, it } from "vitest";
import { hexToText } from "../../src/core/formats.ts";

// The metadata on chain is read as text natively; viem's hexToString is the oracle, for any bytes a log may carry
// (UTF-8 or not).

it("reads any bytes as viem's hexToString does", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const hex = bytesToHex(bytes);
      expect(hexToText(hex)).toBe(hexToString(hex));
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (text) => {
      const bytes = new TextEncoder().encode(text);
      expect(hexToText(bytesToHex(bytes))).toBe(new TextDecoder().decode(bytes));
    }),
  );
});
