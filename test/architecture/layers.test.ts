import { readFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { localImports, sourceFiles } from "./source-graph.ts";

// The folders of src/ and what each may import, as docs/architecture.md lists them (its layers table is
// read here, so the page and the code cannot disagree): data flows one way, so no folder imports one
// above it, and no two folders import each other.

/** Folder → the folders it may import, from the table between the layers markers of docs/architecture.md. */
export function layersOf(page: string): Map<string, Set<string>> {
  const table = page.slice(page.indexOf("<!-- layers:start -->"), page.indexOf("<!-- layers:end -->"));
  const rows = [...table.matchAll(/^\| `src\/([a-z-]+)\/` \|[^|]*\| ([^|]*) \|$/gm)];
  return new Map(
    rows.map(([, folder, allowed]) => [
      folder!,
      new Set([...allowed!.matchAll(/`([a-z-]+)\/`/g)].map(([, name]) => name!)),
    ]),
  );
}

/** Folder → the folders its files import (type-only imports too). */
export function folderImports(files: string[]): Map<string, Set<string>> {
  const folderOf = (file: string) => relative("src", dirname(file)).split("/")[0] || "(root)";
  const edges = new Map<string, Set<string>>();
  for (const file of files)
    for (const target of localImports(file)) {
      if (!target.startsWith("src/") || folderOf(target) === folderOf(file)) continue;
      edges.set(folderOf(file), (edges.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
    }
  return edges;
}

/** Each import of a folder its layer does not allow, as `from → to`. */
export function breaches(imports: Map<string, Set<string>>, layers: Map<string, Set<string>>): string[] {
  return [...imports].flatMap(([from, targets]) =>
    [...targets].filter((to) => !layers.get(from)?.has(to)).map((to) => `${from} → ${to}`),
  );
}

const layers = layersOf(readFileSync("docs/architecture.md", "utf8"));
const imports = folderImports(sourceFiles());

describe("the folders of src/", () => {
  it("are each in the layers table of docs/architecture.md, and every folder there exists", () => {
    const folders = new Set(sourceFiles().map((file) => relative("src", dirname(file)).split("/")[0] || "(root)"));
    expect([...folders].sort()).toEqual([...layers.keys()].sort());
  });

  it("import only what their layer allows", () => {
    expect(breaches(imports, layers)).toEqual([]);
  });

  it("never import each other both ways", () => {
    const twoWay = [...imports].flatMap(([from, targets]) =>
      [...targets].filter((to) => from < to && imports.get(to)?.has(from)).map((to) => `${from} ⇄ ${to}`),
    );
    expect(twoWay).toEqual([]);
  });

  it("are told apart when one imports what it may not (the check can fail)", () => {
    const wrong = new Map([["core", new Set(["chain"])]]);
    expect(breaches(wrong, layers)).toEqual(["core → chain"]);
  });
});
