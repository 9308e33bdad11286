import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ABI_NAMES } from "../../scripts/abi-module.ts";
import { ENTRY_POINTS, exportedNames } from "./exported-names.ts";

// Every name the package exports (values and types, from each of its entry points) is named in docs/testing.md's
// list, so a type a test author meets in an editor is one the docs explain.

describe("the package's exports", () => {
  const page = readFileSync("docs/testing.md", "utf8");
  const start = page.indexOf("## Every type the package exports");
  const list = page.slice(start, page.indexOf("\n## ", start + 1));

  it("are each named in docs/testing.md's list of them", () => {
    const names = [
      ...[...Object.values(ENTRY_POINTS), "src/msw/browser.ts"].flatMap((path) =>
        exportedNames(readFileSync(path, "utf8")),
      ),
      ...Object.values(ABI_NAMES),
    ];
    expect(names).toEqual(expect.arrayContaining(["startSimulator", "RunningSimulator", "ControlError", "handlers"]));
    const missing = names.filter((name) => !list.includes(`\`${name}\``));
    expect(missing, "exported, but not in docs/testing.md's list").toEqual([]);
  });

  it("are read from declarations and export lists (the check can fail)", () => {
    const source = `export { a, b as c } from "./x.ts";\nexport type { D } from "./y.ts";\nexport const e = 1, f = 2;\nexport function g() {}\nexport interface H {}\nexport class I {}\nconst hidden = 3;\nexport type J = string;`;
    expect(exportedNames(source)).toEqual(["a", "c", "D", "e", "f", "g", "H", "I", "J"]);
  });
});
