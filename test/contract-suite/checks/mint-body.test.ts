import { describe, expect, it } from "vitest";
import { mintBody } from "../../../src/contract-suite/checks/mint.ts";
import { nonConformance } from "../../../src/contract-suite/fuzz/conformance.ts";
import { mintItem } from "../../../src/schemas/operations.ts";

const COLLECTION = "0x470d7b2d4855bb6e80654c911fa410a717f77e0e";
const RECIPIENT = "0x9b07418a910748a2b0d9458b1e792b03cb7c4f3f";

describe("the suite's one mint", () => {
  it("is a request mintItem's schemas accept", () => {
    const body = JSON.stringify(mintBody(COLLECTION, 56, RECIPIENT));
    const headers: [string, string][] = [["content-type", "application/json"]];
    expect(nonConformance(mintItem, { params: [], query: [], headers, body })).toEqual([]);
  });

  it("gives every field of the item: one stackable unit, no royalty, marked as the suite's and named by its time", () => {
    const body = mintBody(COLLECTION, 56, RECIPIENT);
    expect(body).toEqual({
      collectionAddress: COLLECTION,
      recipient: RECIPIENT,
      chainId: 56,
      item: {
        name: expect.stringMatching(/^contract-suite item \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        description: "Minted by the contract test suite.",
        imageUrl: "",
        fileType: "image/png",
        properties: [{ name: "source", value: "contract-suite", static: true }],
        isStackable: true,
        isConsumable: false,
        initialSupply: 1,
        maximumSupply: 1,
        royaltyFee: 0,
      },
    });
  });
});
