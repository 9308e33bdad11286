import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SRC = join(ROOT, "src");

/** Every TypeScript file under a folder, as paths relative to the project root. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]!);
}

/** The project files one file imports (type-only imports included), as root-relative paths. */
export function localImports(file: string): string[] {
  const local = specifiers(file).filter((specifier) => specifier.startsWith("."));
  return [...new Set(local.map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier))))];
}

/** The packages one file imports (`viem`, `node:util`, `ajv/dist/2020.js`), type-only imports included. */
export function packageImports(file: string): string[] {
  return [...new Set(specifiers(file).filter((specifier) => !specifier.startsWith(".")))];
}

/** Import cycles among `files`, each as the list of files around it. */
export function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, localImports(file).filter((target) => files.includes(target))]));
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}
