import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERRORS } from "../../src/core/errors.ts";
import { errorTable, withErrorTable } from "../../src/openapi/error-table.ts";
import { OPERATIONS } from "../../src/schemas/operations.ts";

// docs/api.md's error table is the error catalog and the route table, written out by npm run openapi.

describe("the error table of docs/api.md", () => {
  it("is the one the catalog and the route table give (npm run openapi rewrites it)", () => {
    const page = readFileSync("docs/api.md", "utf8");
    expect(page, "run npm run openapi").toBe(withErrorTable(page));
  });

  it("has a row for every error an endpoint declares, marked on that endpoint's column", () => {
    const table = errorTable();
    for (const operation of OPERATIONS)
      for (const error of operation.errors)
        expect(table).toContain(`| ${error.status} | \`${error.code}\` | ${error.message} |`);
    const mintDropped = table.split("\n").find((row) => row.includes(ERRORS.MINT_DROPPED.message))!;
    expect(mintDropped.endsWith("| ✓ | – | – | – |")).toBe(true);
  });
});
