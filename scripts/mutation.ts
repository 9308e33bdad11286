// `npm run mutation [-- <group>…] [--dry-run] [--mutate <glob>]`: StrykerJS over the pure core, one group at a time
// (scripts/mutation-config.ts), each with its own tests; an HTML and a JSON report per group in
// reports/mutation/<group>/, and each group's score at the end. Exits 1 when a group kills fewer than
// 90% of its mutants. `--dry-run` only runs each group's tests once, instrumented, with no mutant active;
// `--mutate src/x.ts` (or `src/x.ts:10-40`) mutates only that part of a group, while writing its tests;
// `--concurrency 2` runs two test processes instead of one (no more: the machine is shared).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Stryker } from "@stryker-mutator/core";
import {
  GROUP_VARIABLE,
  MUTATION_GROUPS,
  mutationGroup,
  REPORTS,
  scoreOf,
  strykerOptions,
  TARGET_SCORE,
  type GroupScore,
  type MutationGroup,
} from "./mutation-config.ts";

interface RunOptions {
  dryRun: boolean;
  mutate?: string;
  concurrency: number;
}

async function runGroup(
  group: MutationGroup,
  { dryRun, mutate, concurrency }: RunOptions,
): Promise<GroupScore | undefined> {
  process.env[GROUP_VARIABLE] = group.name;
  const started = performance.now();
  const options = { ...strykerOptions(group, { dryRun }), concurrency, ...(mutate ? { mutate: [mutate] } : {}) };
  const results = await new Stryker(options).runMutationTest();
  const seconds = (performance.now() - started) / 1000;
  if (dryRun) {
    console.log(`${group.name}: the dry run passed in ${Math.round(seconds)} s`);
    return undefined;
  }
  return scoreOf(group.name, results, seconds);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      "dry-run": { type: "boolean" },
      mutate: { type: "string" },
      concurrency: { type: "string", default: "1" },
    },
    allowPositionals: true,
  });
  const groups = positionals.length ? positionals.map(mutationGroup) : MUTATION_GROUPS;
  const concurrency = Number(values.concurrency);
  if (concurrency !== 1 && concurrency !== 2) throw new Error("--concurrency is 1 or 2 (the machine is shared)");
  const scores: GroupScore[] = [];
  for (const group of groups) {
    const score = await runGroup(group, { dryRun: values["dry-run"] ?? false, mutate: values.mutate, concurrency });
    if (score) scores.push(score);
  }
  if (!scores.length) return;
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(join(REPORTS, "scores.json"), `${JSON.stringify(scores, null, 2)}\n`);
  console.log("\ngroup            score   killed  survived  no coverage  ignored  seconds");
  for (const s of scores)
    console.log(
      `${s.group.padEnd(16)} ${s.score.toFixed(2).padStart(6)}%  ${String(s.killed).padStart(6)}  ` +
        `${String(s.survived).padStart(8)}  ${String(s.noCoverage).padStart(11)}  ${String(s.ignored).padStart(7)}  ` +
        `${String(s.seconds).padStart(7)}`,
    );
  const below = scores.filter((s) => s.score < TARGET_SCORE);
  if (below.length) {
    console.error(`below ${TARGET_SCORE}%: ${below.map((s) => s.group).join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
