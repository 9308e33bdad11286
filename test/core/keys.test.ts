import fc from "fast-check";
import { bytesToHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { addressOf, keyFor } from "../../src/core/keys.ts";

// addressOf derives addresses with Node's secp256k1; viem's own derivation is the oracle.
describe("addressOf", () => {
  it("gives viem's address for any valid private key", () => {
    // A valid key is below the curve order; 31 random bytes under a zero byte always are.
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 31, maxLength: 31 }).filter((bytes) => bytes.some((b) => b !== 0)),
        (bytes) => {
          const key = bytesToHex(new Uint8Array([0, ...bytes]));
          expect(addressOf(key)).toBe(privateKeyToAddress(key).toLowerCase());
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives viem's address for the world's labelled keys", () => {
    for (const label of ["account/studio", "deployer/56", "deployer/137"])
      expect(addressOf(keyFor(label))).toBe(privateKeyToAddress(keyFor(label)).toLowerCase());
  });
});
