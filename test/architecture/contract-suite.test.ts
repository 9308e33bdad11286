import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localImports, packageImports, SRC, sourceFiles } from "./source-graph.ts";

/** What the suite may run on besides Node: the schemas' own libraries, and fast-check for its fuzz mode. */
const SCHEMA_PACKAGES = new Set(["@sinclair/typebox", "ajv", "ajv-formats", "fast-check"]);
// The error catalog (and the limits it names) is part of the contract: what each status's body may say.
const CATALOG = ["src/core/errors.ts", "src/core/error-catalog.ts", "src/core/start-errors.ts", "src/core/limits.ts"];
const isContractFile = (file: string) =>
  file.startsWith("src/contract-suite/") || file.startsWith("src/schemas/") || CATALOG.includes(file);
const isContractPackage = (name: string) => name.startsWith("node:") || SCHEMA_PACKAGES.has(name);

/**
 * Follows imports from `roots` through the suite and the schemas, and answers each import
 * that leaves them (`file → what it imports`): a deployment-agnostic suite must need none.
 */
function importsBeyondTheContract(roots: string[], isContract = isContractFile): string[] {
  const found: string[] = [];
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    for (const name of packageImports(file)) if (!isContractPackage(name)) found.push(`${file} → ${name}`);
    for (const target of localImports(file)) {
      if (isContract(target)) visit(target);
      else found.push(`${file} → ${target}`);
    }
  };
  roots.forEach(visit);
  return found;
}

describe("the contract suite (it tests any deployment)", () => {
  it("imports, transitively, only itself, src/schemas/, the error catalog, the schemas' libraries and fast-check", () => {
    expect(importsBeyondTheContract(sourceFiles(join(SRC, "contract-suite")))).toEqual([]);
  });

  it("is told apart from code that starts a simulator (the check can fail)", () => {
    expect(importsBeyondTheContract(["src/cli/contract-target.ts"])).toContain(
      "src/cli/contract-target.ts → src/simulator/simulator.ts",
    );
  });

  it("follows imports through the schemas (the check is transitive)", () => {
    // Were the catalog's limits not part of the contract, the schemas would reach beyond it through the catalog.
    const withoutLimits = (file: string) => isContractFile(file) && file !== "src/core/limits.ts";
    expect(importsBeyondTheContract(["src/schemas/validate.ts"], withoutLimits)).toEqual([
      "src/core/error-catalog.ts → src/core/limits.ts",
    ]);
  });
});
