// What `npm run mutation` (scripts/mutation.ts) runs: the pure core in groups, each with its own fast tests.
// A group's tests are vitest's `include` while it runs (scripts/mutation.vitest.config.ts), not Stryker's
// `testFiles`: with `testFiles`, a mutant in code a module runs as it loads is reported as surviving.
import { join } from "node:path";
import type { LogLevel, MutantResult, PartialStrykerOptions } from "@stryker-mutator/api/core";
import type { ViteUserConfig } from "vitest/config";

export interface MutationGroup {
  /** What the group is called on the command line and in reports/mutation/<name>/. */
  name: string;
  /** The files whose mutants count (globs, as Stryker's `mutate`). */
  mutate: string[];
  /** The test files that must kill them (globs, as vitest's `include`). */
  tests: string[];
}

export const MUTATION_GROUPS: MutationGroup[] = [
  {
    name: "indexer",
    mutate: ["src/indexer/apply.ts", "src/indexer/marketplace.ts"],
    tests: [
      "test/indexer/reducers.test.ts",
      "test/indexer/marketplace.test.ts",
      "test/indexer/apply.test.ts",
      "test/indexer/batches.test.ts",
    ],
  },
  {
    name: "views",
    mutate: ["src/views/*.ts"],
    tests: ["test/views/*.test.ts"],
  },
  {
    name: "metadata",
    mutate: ["src/metadata/codec.ts", "src/core/formats.ts"],
    tests: ["test/metadata/codec.test.ts", "test/core/formats.test.ts"],
  },
  {
    name: "access",
    mutate: ["src/access/*.ts"],
    tests: ["test/access/*.test.ts"],
  },
  {
    name: "contract-suite",
    mutate: [
      "src/contract-suite/checks/*.ts",
      "src/contract-suite/answers/*.ts",
      "src/contract-suite/order.ts",
      "src/contract-suite/facts.ts",
    ],
    tests: [
      "test/contract-suite/suite.test.ts",
      "test/contract-suite/order.test.ts",
      "test/contract-suite/facts.test.ts",
      "test/contract-suite/checks/*.test.ts",
      "test/contract-suite/answers/*.test.ts",
      "test/proxy/breakages.test.ts",
    ],
  },
];

/** The environment variable that names the group to the vitest config, in Stryker's test-runner processes. */
export const GROUP_VARIABLE = "MUTATION_GROUP";

export function mutationGroup(name: string | undefined): MutationGroup {
  const group = MUTATION_GROUPS.find((candidate) => candidate.name === name);
  if (!group)
    throw new Error(
      `no mutation group ${JSON.stringify(name)}; the groups are ${MUTATION_GROUPS.map((g) => g.name).join(", ")}`,
    );
  return group;
}

export const TARGET_SCORE = 90;
export const REPORTS = "reports/mutation";

/** What Stryker copies into its sandbox: what the groups' tests read, not the bundles, benches and docs. */
const NOT_COPIED = ["/dist", "/bench", "/docs", "/dashboard", "/contracts", "/reports", "/test-artifacts"];

export function strykerOptions(group: MutationGroup, { dryRun = false } = {}): PartialStrykerOptions {
  return {
    mutate: group.mutate,
    testRunner: "vitest",
    vitest: { configFile: "scripts/mutation.vitest.config.ts", related: false },
    coverageAnalysis: "perTest",
    // The machine is shared: one test process at a time.
    concurrency: 1,
    ignorePatterns: NOT_COPIED,
    tempDirName: ".stryker-tmp",
    cleanTempDir: true,
    reporters: dryRun ? ["clear-text"] : ["html", "json", "clear-text", "progress"],
    htmlReporter: { fileName: join(REPORTS, group.name, "index.html") },
    jsonReporter: { fileName: join(REPORTS, group.name, "mutation.json") },
    clearTextReporter: { reportTests: false, reportMutants: false, reportScoreTable: true },
    thresholds: { high: TARGET_SCORE, low: 80, break: null },
    dryRunOnly: dryRun,
    logLevel: "warn" as LogLevel,
    fileLogLevel: "off" as LogLevel,
  };
}

export interface GroupScore {
  group: string;
  mutants: number;
  killed: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** Killed (or timed out) of those that count, in percent, as Stryker scores them. */
  score: number;
  seconds: number;
}

export function scoreOf(group: string, results: MutantResult[], seconds: number): GroupScore {
  const count = (...statuses: MutantResult["status"][]) =>
    results.filter((result) => statuses.includes(result.status)).length;
  const killed = count("Killed", "Timeout");
  const survived = count("Survived");
  const noCoverage = count("NoCoverage");
  const counted = killed + survived + noCoverage;
  return {
    group,
    mutants: results.length,
    killed,
    survived,
    noCoverage,
    ignored: count("Ignored"),
    score: counted === 0 ? 100 : Math.round((killed / counted) * 10_000) / 100,
    seconds: Math.round(seconds),
  };
}

/** The project's vitest config, narrowed to a group's tests (what scripts/mutation.vitest.config.ts hands Stryker). */
export function groupVitestConfig(base: ViteUserConfig, group: MutationGroup): ViteUserConfig {
  return {
    ...base,
    test: {
      ...base.test,
      include: group.tests,
      // The same draws on every run, so a score moves only when the code or the tests do.
      env: { FC_SEED: process.env.FC_SEED ?? "20261125" },
    },
  };
}
