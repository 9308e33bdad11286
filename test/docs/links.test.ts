import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, it } from "vitest";

// The README sends a reader to pages under docs/; a link to a moved page or a renamed heading fails here.

const PAGES = [
  "README.md",
  "fixtures/README.md",
  "bench/README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchors(page: string): Set<string> {
  const text = readFileSync(page, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}

it("every relative link of the README and the docs pages names a file that exists, and a heading it has", () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(page, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const file = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(file)) broken.push(`${page}: ${target} (no ${file})`);
      else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
        broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  expect(broken).toEqual([]);
});

it("reads headings as GitHub anchors them", () => {
  expect(anchorOf("`nft-sim`, the package's command")).toBe("nft-sim-the-packages-command");
  expect(anchorOf("Keeping state across restarts: `--state <dir>`")).toBe("keeping-state-across-restarts---state-dir");
});
