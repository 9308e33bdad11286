import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importClosure, packageImports, SRC, sourceFiles } from "./source-graph.ts";

/** What the suite may run on besides Node: the schemas' own libraries. */
const SCHEMA_PACKAGES = new Set(["@sinclair/typebox", "ajv", "ajv-formats"]);

/** Files and packages `roots` reach that a deployment-agnostic suite must not need. */
function beyondTheContract(roots: string[]): string[] {
  const files = importClosure(roots);
  const outsideFiles = files.filter((file) => !file.startsWith("src/contract-suite/") && !file.startsWith("src/schemas/"));
  const outsidePackages = [...new Set(files.flatMap(packageImports))].filter((name) => !name.startsWith("node:") && !SCHEMA_PACKAGES.has(name));
  return [...outsideFiles, ...outsidePackages.sort()];
}

describe("the contract suite (it tests any deployment)", () => {
  it("imports, transitively, only itself, src/schemas/ and the schemas' libraries", () => {
    expect(beyondTheContract(sourceFiles(join(SRC, "contract-suite")))).toEqual([]);
  });

  it("is told apart from code that starts a simulator (the check can fail)", () => {
    const found = beyondTheContract(["src/cli/contract-target.ts"]);
    expect(found).toContain("src/simulator.ts");
    expect(found).toContain("viem");
  });
});
