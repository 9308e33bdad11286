import { describe, expect, it } from "vitest";
import { conceptWarnings, exportGroups, namedImports } from "../../scripts/concepts.ts";

// `node scripts/concepts.ts` warns of files that may hold more than one concept; here, that its measure can find one.

const TWO_CONCEPTS = [
  "export interface Drain { stop(): void }",
  "export function drain(): Drain { return { stop() {} }; }",
  "export const LIMIT = 3;",
  "export function guard(limit = LIMIT) { return limit; }",
  "export function unused() {}",
].join("\n");

describe("the concept warning", () => {
  it("groups exports a declaration names together, and those an importer takes together", () => {
    expect(exportGroups(TWO_CONCEPTS, [])).toEqual([
      ["Drain", "drain"],
      ["LIMIT", "guard"],
    ]);
    expect(exportGroups(TWO_CONCEPTS, [["drain", "guard"]])).toEqual([["Drain", "LIMIT", "drain", "guard"]]);
  });

  it("reads the names an import takes, from the module it names", () => {
    const text = 'import { a, type B, c as d } from "../x/y.ts";\nimport { e } from "viem";\n';
    expect(namedImports("src/z/w.ts", text)).toEqual([{ from: "src/x/y.ts", names: ["a", "B", "c"] }]);
  });

  it("names a long file of more than one group, and a very long one whatever it holds", () => {
    const texts: Record<string, string> = {
      "src/a/two.ts": TWO_CONCEPTS,
      "src/a/one.ts": "export const ONE = 1;\nexport const TWO = ONE + 1;\n",
      "src/b/user.ts": 'import { drain } from "../a/two.ts";\nimport { guard } from "../a/two.ts";\n',
    };
    const files = Object.keys(texts);
    const warnings = (limits: { long: number; veryLong: number }) =>
      conceptWarnings(files, (file) => texts[file]!, limits).map(({ file, groups }) => ({ file, groups }));
    expect(warnings({ long: 2, veryLong: 100 })).toEqual([
      {
        file: "src/a/two.ts",
        groups: [
          ["Drain", "drain"],
          ["LIMIT", "guard"],
        ],
      },
    ]);
    expect(warnings({ long: 100, veryLong: 100 })).toEqual([]);
    expect(warnings({ long: 100, veryLong: 2 }).map(({ file }) => file)).toEqual([
      "src/a/two.ts",
      "src/a/one.ts",
      "src/b/user.ts",
    ]);
  });
});
