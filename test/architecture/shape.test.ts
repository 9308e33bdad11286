import { describe, expect, it } from "vitest";
import { importCycles, sourceFiles } from "./source-graph.ts";

describe("the shape of src/", () => {
  it("has no import cycle", () => {
    expect(importCycles(sourceFiles()).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("finds a cycle when there is one (the check can fail)", () => {
    expect(importCycles(["test/architecture/fixtures/a.ts", "test/architecture/fixtures/b.ts"])).toEqual([
      ["test/architecture/fixtures/a.ts", "test/architecture/fixtures/b.ts", "test/architecture/fixtures/a.ts"],
    ]);
  });
});
