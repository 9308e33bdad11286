import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./source-graph.ts";

/** The folders whose paths the docs name from the repository's root. */
const ROOTED = ["src/", "test/", "bench/", "scripts/"];

/** The files under `folder` (of the repository), each as its path inside it. */
function filesUnder(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" });
}

/**
 * The paths `markdown` names that do not exist under `root`: a code span that starts with a rooted folder
 * (`src/chain/savepoint.ts`, `test/msw/`), one that starts with a folder of src/ (`chain/savepoint.ts`, as the walks
 * name them), and in the layers table a file named bare in a folder's row (`savepoint.ts` in the row of `src/chain/`),
 * which must be somewhere under that folder. Placeholders (`src/<folder>/`) and URL paths (`/_sim`) are not paths.
 */
export function missingPaths(markdown: string, root: string = ROOT): string[] {
  const srcFolders = new Set(readdirSync(join(root, "src")));
  const spans = (text: string) => [...text.matchAll(/`([^`\s<>*]+)`/g)].map(([, span]) => span!);
  const missing = new Set<string>();
  for (const span of spans(markdown)) {
    const first = span.split("/")[0]!;
    const path = ROOTED.some((folder) => span.startsWith(folder))
      ? span
      : span.includes("/") && srcFolders.has(first) && /(\.\w+|\/)$/.test(span)
        ? `src/${span}`
        : undefined;
    if (path && !existsSync(join(root, path))) missing.add(span);
  }
  const table = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(markdown)?.[1] ?? "";
  for (const [, folder, job] of table.matchAll(/^\| `(src\/[^`]+?)\/` \| (.*?) \|[^|]*\|$/gm)) {
    const names = new Set(filesUnder(root, folder!).map((file) => file.split("/").at(-1)));
    for (const span of spans(job!))
      if (/^[\w.-]+\.(ts|mjs)$/.test(span) && !names.has(span)) missing.add(`${span} (in the row of ${folder}/)`);
  }
  return [...missing];
}

describe("docs/architecture.md", () => {
  it("names only source paths that exist", () => {
    expect(missingPaths(readFileSync(join(ROOT, "docs/architecture.md"), "utf8"))).toEqual([]);
  });

  it("finds a path that does not exist (the check can fail)", () => {
    const markdown = [
      "`src/chain/savepoint.ts` and `chain/sim-chain.ts` are there; `src/chain/state-load.ts` and",
      "`journal/checkpoint-parts.ts` and `test/nowhere/` and `bench/gone.ts` are not; `/_sim` is a URL,",
      "`src/<folder>/` a placeholder.",
      "<!-- layers:start -->",
      "| `src/chain/` | its writer (`chain-writer.ts`), the savepoint (`savepoint.ts`), the old one (`recorded.ts`) | `core/` |",
      "<!-- layers:end -->",
    ].join("\n");
    expect(missingPaths(markdown)).toEqual([
      "src/chain/state-load.ts",
      "journal/checkpoint-parts.ts",
      "test/nowhere/",
      "bench/gone.ts",
      "recorded.ts (in the row of src/chain/)",
    ]);
  });
});
