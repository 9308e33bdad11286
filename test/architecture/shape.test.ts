import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, ROOT, sourceFiles } from "./source-graph.ts";

describe("the shape of src/", () => {
  it("has no import cycle", () => {
    expect(importCycles(sourceFiles()).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("finds a cycle when there is one (the check can fail)", () => {
    expect(importCycles(["test/architecture/fixtures/a.ts", "test/architecture/fixtures/b.ts"])).toEqual([
      ["test/architecture/fixtures/a.ts", "test/architecture/fixtures/b.ts", "test/architecture/fixtures/a.ts"],
    ]);
  });

  it("keeps every file at 300 lines or fewer", () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 300);
    expect(long).toEqual([]);
  });
});
