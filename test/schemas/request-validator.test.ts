import { describe, expect, it } from "vitest";
import { CollectionsQuery } from "../../src/schemas/collection.ts";
import { MintBody } from "../../src/schemas/item.ts";
import { requestValidator } from "../../src/schemas/validate.ts";

// A request's unknown field is answered with the known field nearest to it, where one is near enough.

const refusal = (check: () => unknown): string[] => {
  try {
    check();
  } catch (error) {
    return (error as { body: { errors: string[] } }).body.errors;
  }
  throw new Error("accepted");
};

describe("an unknown field in a request", () => {
  it("in the query names the nearest known one (sortOrder → sortDir, perpage → perPage)", () => {
    const query = requestValidator(CollectionsQuery, "query");
    expect(refusal(() => query({ sortOrder: "desc" }))).toEqual([
      "query: unknown field 'sortOrder' (did you mean 'sortDir'?)",
    ]);
    expect(refusal(() => query({ perpage: "5" }))).toEqual([
      "query: unknown field 'perpage' (did you mean 'perPage'?)",
    ]);
  });

  it("in a nested body object names the nearest field of that object", () => {
    const body = requestValidator(MintBody, "body");
    const mint = { collectionAddress: "0x0000000000000000000000000000000000000001", chainId: 56 };
    expect(
      refusal(() => body({ ...mint, recipent: "0x0000000000000000000000000000000000000002", item: { name: "A" } })),
    ).toContain("body: unknown field 'recipent' (did you mean 'recipient'?)");
    expect(refusal(() => body({ ...mint, item: { name: "A", initalSupply: 1 } }))).toContain(
      "body.item: unknown field 'initalSupply' (did you mean 'initialSupply'?)",
    );
  });

  it("names none when nothing is near", () => {
    expect(refusal(() => requestValidator(CollectionsQuery, "query")({ colour: "red" }))).toEqual([
      "query: unknown field 'colour'",
    ]);
  });
});
