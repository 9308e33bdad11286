import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import base from "../../vitest.config.ts";
import {
  groupVitestConfig,
  MUTATION_GROUPS,
  mutationGroup,
  REPORTS,
  scoreOf,
  strykerOptions,
} from "../../scripts/mutation-config.ts";
import { ROOT } from "../architecture/source-graph.ts";
import { runShown } from "../docs/run-shown.ts";

// `npm run mutation` takes longer than CI should wait (docs/testing.md gives each group's time), so CI checks
// that its configuration still holds: Stryker's own schema accepts each group's options, each group mutates
// files that exist and runs tests that exist, and the vitest config narrows to those tests.

const strykerSchema = JSON.parse(
  readFileSync(join(ROOT, "node_modules/@stryker-mutator/core/schema/stryker-schema.json"), "utf8"),
) as object;
/** The files a group's pattern names (a `*` only in the file's name, as the groups write them). */
function files(pattern: string): string[] {
  const name = new RegExp(`^${basename(pattern).replace(/[.]/g, "\\.").replaceAll("*", "[^/]*")}$`);
  const folder = dirname(pattern);
  return readdirSync(join(ROOT, folder))
    .filter((file) => name.test(file))
    .map((file) => `${folder}/${file}`);
}

describe("npm run mutation's groups", () => {
  it("have options Stryker's schema accepts, for a run and a dry run", () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(strykerSchema);
    for (const group of MUTATION_GROUPS)
      for (const dryRun of [false, true]) {
        const options = strykerOptions(group, { dryRun });
        expect(validate(options) ? [] : validate.errors, group.name).toEqual([]);
        expect(options).toMatchObject({ testRunner: "vitest", concurrency: 1, mutate: group.mutate });
      }
  });

  it("mutate source files that exist, each in one group, and run test files that exist", () => {
    const mutated = MUTATION_GROUPS.flatMap((group) => group.mutate.flatMap(files));
    expect(new Set(mutated).size).toBe(mutated.length);
    for (const group of MUTATION_GROUPS) {
      for (const pattern of group.mutate) expect(files(pattern), pattern).not.toEqual([]);
      for (const file of group.mutate.flatMap(files)) expect(file).toMatch(/^src\/.+\.ts$/);
      for (const pattern of group.tests) {
        expect(files(pattern), pattern).not.toEqual([]);
        for (const file of files(pattern)) expect(file).toMatch(/^test\/.+\.test\.ts$/);
      }
    }
  });

  it("run each group's tests alone, on fixed draws, and report under a folder git ignores", () => {
    for (const group of MUTATION_GROUPS) {
      const config = groupVitestConfig(base, group);
      expect(config.test?.include).toEqual(group.tests);
      expect(config.test?.setupFiles).toEqual(base.test?.setupFiles);
      expect(config.test?.env?.FC_SEED).toMatch(/^\d+$/);
      expect(strykerOptions(group)).toMatchObject({
        htmlReporter: { fileName: `${REPORTS}/${group.name}/index.html` },
        jsonReporter: { fileName: `${REPORTS}/${group.name}/mutation.json` },
      });
    }
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain(`/${REPORTS.split("/")[0]}/`);
    expect(() => mutationGroup("nothing")).toThrow(/^no mutation group "nothing"; the groups are indexer, /);
  });

  it("score as Stryker does: killed and timed out of those that count, ignored ones apart", () => {
    const results = ["Killed", "Killed", "Timeout", "Survived", "NoCoverage", "Ignored", "CompileError"].map(
      (status) => ({ status }) as never,
    );
    expect(scoreOf("g", results, 12.4)).toEqual({
      group: "g",
      mutants: 7,
      killed: 3,
      survived: 1,
      noCoverage: 1,
      ignored: 1,
      score: 60,
      seconds: 12,
    });
    expect(scoreOf("g", [], 0).score).toBe(100);
  });
});

describe("npm run mutation", () => {
  it("runs a group's tests under Stryker: the access group's dry run, as docs/testing.md shows it", async () => {
    const ran = await runShown("npm run mutation -- access --dry-run", { timeoutMs: 240_000 });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^access: the dry run passed in \d+ s$/m);
  }, 300_000);
});
