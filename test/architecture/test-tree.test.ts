import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./source-graph.ts";

// test/ mirrors src/: the tests of src/<folder>/<file>.ts are in test/<folder>/, so a reader finds a
// module's tests at once. Beside the mirror are the folders below, which test what src/ does not hold,
// and the helpers at test/'s root that every folder shares; docs/architecture.md's row for test/ names
// each of both.

/** The folders of test/ that are no folder of src/ (or hold more than its tests), and what they test. */
export const BESIDE_THE_MIRROR: Record<string, string> = {
  architecture: "the shape of src/",
  contracts: "the Solidity of contracts/",
  dashboard: "the dashboard of dashboard/",
  docs: "the commands the README and docs/ show",
  package:
    "the packed package, installed as a user installs it (consumer/ and team/, whose npm runs on Node 20, are the projects it goes into)",
  scripts: "the configuration of scripts/ that CI cannot run whole (npm run mutation's groups)",
};

/** Every file under test/, as paths relative to it. */
function testTree(): string[] {
  return readdirSync(join(ROOT, "test"), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(join(ROOT, "test"), join(entry.parentPath, entry.name)))
    .sort();
}

const isSrcFolder = (folder: string) =>
  existsSync(join(ROOT, "src", folder)) && statSync(join(ROOT, "src", folder)).isDirectory();

/**
 * The files of test/ (relative to it) that break the mirror: a test file whose folder is no folder of
 * src/, any file in a top folder that is neither src/'s nor beside the mirror, a test at test/'s root.
 */
export function outsideTheMirror(files: string[], isSource: (folder: string) => boolean = isSrcFolder): string[] {
  return files.filter((file) => {
    const folder = dirname(file);
    if (folder === ".") return file.endsWith(".test.ts");
    const top = folder.split("/")[0]!;
    if (top in BESIDE_THE_MIRROR) return false;
    return file.endsWith(".test.ts") ? !isSource(folder) : !isSource(top);
  });
}

/** The row of docs/architecture.md's table beside src/ that tells what test/ is. */
function testRow(): string {
  const row = readFileSync(join(ROOT, "docs/architecture.md"), "utf8")
    .split("\n")
    .find((line) => line.startsWith("| `test/` |"));
  if (!row) throw new Error("docs/architecture.md has no row for test/");
  return row;
}

describe("test/", () => {
  it("mirrors src/: each test is in the folder of what it tests, or in a folder beside the mirror", () => {
    expect(outsideTheMirror(testTree())).toEqual([]);
  });

  it("finds a test out of place (the check can fail)", () => {
    const src = new Set(["chain", "chain/node", "routes"]);
    const files = [
      "harness.ts",
      "stray.test.ts",
      "api/mint.test.ts",
      "api/helpers.ts",
      "chain/node/writer.test.ts",
      "chain/actions/mint.test.ts",
      "chain/fixtures/node.config.ts",
      "routes/reads.test.ts",
      "docs/commands.test.ts",
      "package/consumer/test/api.test.ts",
    ];
    expect(outsideTheMirror(files, (folder) => src.has(folder))).toEqual([
      "stray.test.ts",
      "api/mint.test.ts",
      "api/helpers.ts",
      "chain/actions/mint.test.ts",
    ]);
  });

  it("has its shared helpers and the folders beside the mirror named in docs/architecture.md", () => {
    const row = testRow();
    const helpers = testTree().filter((file) => !file.includes("/"));
    expect(helpers.filter((file) => !row.includes(`\`test/${file}\``))).toEqual([]);
    const named = [...row.matchAll(/`test\/([a-z-]+\.ts)`/g)].map(([, file]) => file!);
    expect(named.filter((file) => !helpers.includes(file))).toEqual([]);
    for (const folder of Object.keys(BESIDE_THE_MIRROR)) expect(row, folder).toContain(`\`test/${folder}\``);
  });
});
