import fc from "fast-check";
import { bytesToHex, hexToString, stringToHex } from "viem";
import { expect, it } from "vitest";
import {
  hexToText,
  itemRef,
  lowerAddress,
  marketEventId,
  slugify,
  textToHex,
  transferEventId,
} from "../../src/core/formats.ts";

// The metadata on chain is read as text natively; viem's hexToString is the oracle, for any bytes a log may carry
// (UTF-8 or not). It is written as viem's stringToHex writes it, for any text (lone surrogates included).

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

it("writes any text as viem's stringToHex does, and reads it back", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
      const hex = textToHex(text);
      expect(hex).toBe(stringToHex(text));
      expect(hexToText(hex)).toBe(new TextDecoder().decode(new TextEncoder().encode(text)));
    }),
    { numRuns: 2000 },
  );
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
  fc.assert(
    fc.property(fc.string({ unit: codeUnit }), (text) => {
      expect(textToHex(text)).toBe(stringToHex(text));
    }),
  );
});

it("names addresses in lower case, items, and events as the original does", () => {
  expect(lowerAddress("0xAbC0000000000000000000000000000000000DeF")).toBe("0xabc0000000000000000000000000000000000def");
  expect(itemRef(56, "0xabc0000000000000000000000000000000000def", 12n)).toBe(
    "56-0xabc0000000000000000000000000000000000def-12",
  );
  expect(transferEventId("TransferSingle", 1342, 7)).toBe("TransferSingle-1342-7");
  expect(marketEventId("Swapped", 9n, `0x${"ab".repeat(32)}`, 3)).toBe(`Swapped-9-0x${"ab".repeat(32)}-3`);
});

it("slugs a name: lower-case words of letters and digits joined by '-', or 'collection' when none is left", () => {
  expect(slugify("Neon Drift #2")).toBe("neon-drift-2");
  expect(slugify("  --Café  Été!! ")).toBe("cafe-ete");
  expect(slugify("ÅRHUS")).toBe("arhus");
  expect(slugify("a_b.c")).toBe("a-b-c");
  expect(slugify("!!!")).toBe("collection");
  expect(slugify("")).toBe("collection");
});
