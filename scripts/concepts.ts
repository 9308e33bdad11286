// `node scripts/concepts.ts`: the files of src/ that may hold more than one concept, as a warning (it prints, and
// never fails). One concept per file, not a line cap: a long file is fine while it is one idea. What it measures is
// how the code's own users see a file: two of its exports are one concept when a file of src/ imports both, or when
// one's declaration names the other; a file whose exports fall into separate groups that nothing uses together holds
// as many concepts as groups. A file is named when it is long with more than one group, or very long whatever it
// holds (a long file is read whole by whoever changes it).
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, sourceFiles } from "../test/architecture/source-graph.ts";

/** Over this many lines, a file with more than one group of exports is named. */
export const LONG = 200;
/** Over this many lines, a file is named whatever it holds. */
export const VERY_LONG = 400;

export interface ConceptWarning {
  file: string;
  lines: number;
  /** The exports, in groups that no file of src/ uses together (each sorted; the largest first). */
  groups: string[][];
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([\w$]+)/gm;
const LOCAL_EXPORT_LIST = /^export\s+(?:type\s+)?\{([^}]*)\}\s*;/gm;
const NAMED_IMPORT =
  /(?:^|\s)(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/gm;

const namesIn = (list: string) =>
  list
    .split(",")
    .map((part) => part.replace(/^\s*type\s+/, "").trim())
    .filter(Boolean);

/** The names `text` exports, each with its declaration's text (up to the next top-level export). */
export function exportsOf(text: string): Map<string, string> {
  const starts = [...text.matchAll(DECLARATION)].map((match) => ({ name: match[1]!, at: match.index }));
  const declared = new Map(
    starts.map(({ name, at }, i) => [name, text.slice(at, starts[i + 1]?.at ?? text.length)] as const),
  );
  for (const [, list] of text.matchAll(LOCAL_EXPORT_LIST))
    for (const name of namesIn(list!)) declared.set(name.split(/\s+as\s+/).at(-1)!, "");
  return declared;
}

/** Each named import of `file`: the module it names (root-relative, with .ts) and the names taken together. */
export function namedImports(file: string, text: string): { from: string; names: string[] }[] {
  return [...text.matchAll(NAMED_IMPORT)]
    .filter(([, , specifier]) => specifier!.startsWith("."))
    .map(([, list, specifier]) => ({
      from: relative(ROOT, join(ROOT, file, "..", specifier!)),
      names: namesIn(list!).map((name) => name.split(/\s+as\s+/)[0]!),
    }));
}

/**
 * The groups of a file's exports: joined when one declaration names another, or when an importer takes both. Exports
 * nothing in `importers` takes and no other export names are left out (what only tests use says nothing of the design).
 */
export function exportGroups(text: string, importers: string[][]): string[][] {
  const declared = exportsOf(text);
  const parent = new Map([...declared.keys()].map((name) => [name, name]));
  const find = (name: string): string => (parent.get(name) === name ? name : find(parent.get(name)!));
  const join2 = (a: string, b: string) => parent.set(find(a), find(b));
  const used = new Set<string>();
  for (const [name, declaration] of declared)
    for (const other of declared.keys())
      if (other !== name && new RegExp(`\\b${other.replace(/\$/g, "\\$")}\\b`).test(declaration)) {
        join2(name, other);
        used.add(name).add(other);
      }
  for (const names of importers) {
    const known = names.filter((name) => declared.has(name));
    known.forEach((name) => used.add(name));
    for (const name of known.slice(1)) join2(known[0]!, name);
  }
  const groups = new Map<string, string[]>();
  for (const name of used) groups.set(find(name), [...(groups.get(find(name)) ?? []), name].sort());
  return [...groups.values()].sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** The files of `files` (root-relative, read by `read`) that may hold more than one concept, longest first. */
export function conceptWarnings(
  files: string[] = sourceFiles(),
  read: (file: string) => string = (file) => readFileSync(join(ROOT, file), "utf8"),
  { long = LONG, veryLong = VERY_LONG } = {},
): ConceptWarning[] {
  const texts = new Map(files.map((file) => [file, read(file)]));
  const importersOf = new Map<string, string[][]>();
  for (const [file, text] of texts)
    for (const { from, names } of namedImports(file, text))
      importersOf.set(from, [...(importersOf.get(from) ?? []), names]);
  const warnings: ConceptWarning[] = [];
  for (const [file, text] of texts) {
    const lines = text.split("\n").length;
    if (lines <= Math.min(long, veryLong)) continue;
    const groups = exportGroups(text, importersOf.get(file) ?? []);
    if (lines > veryLong || (lines > long && groups.length > 1)) warnings.push({ file, lines, groups });
  }
  return warnings.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const warnings = conceptWarnings();
  for (const { file, lines, groups } of warnings) {
    const why = groups.length > 1 ? `${groups.length} groups of exports nothing uses together` : "very long";
    console.warn(`warning: ${file}: ${lines} lines, ${why}`);
    if (groups.length > 1) for (const group of groups) console.warn(`  ${group.join(", ")}`);
  }
  console.log(
    `${warnings.length} file(s) of src/ may hold more than one concept (over ${LONG} lines with exports in groups ` +
      `nothing uses together, or over ${VERY_LONG} lines)`,
  );
}
