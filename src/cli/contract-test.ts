import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fuzzAsSuite, junitXml, setupFailureAsSuite } from "../contract-suite/report/junit.ts";
import { fuzzSummary, progressLine, summary } from "../contract-suite/report/summary.ts";
import { probeTarget } from "../contract-suite/setup.ts";
import { isStartError, START_ERRORS } from "../core/errors.ts";
import { runContractSuite, type SuiteReport } from "../contract-suite/suite.ts";
import type { Target } from "../contract-suite/target.ts";
import { runFuzz } from "../contract-suite/fuzz/run.ts";
import type { LocalTarget } from "./contract-target.ts";
import { junitPathIn, readSuiteOptions, USAGE, type SuiteOptions } from "./contract-test-options.ts";
import { runAsScript } from "./command-line.ts";

/**
 * `npm run contract-test` and `nft-sim contract-test`. Resolves with the exit code: 0 when every
 * check passed, 1 on a contract violation, 2 when the suite could not run (a usage error included).
 */
export async function contractTest(argv: string[], usage = USAGE): Promise<number> {
  try {
    return await run(argv, usage);
  } catch (caught) {
    const error = caught as Error & { code?: string };
    if (isStartError(error, START_ERRORS.TARGET_UNUSABLE)) {
      console.error(`contract-test could not run: ${error.message}`);
    } else {
      const isUsage = isStartError(error, START_ERRORS.USAGE) || String(error.code).startsWith("ERR_PARSE_ARGS");
      console.error(isUsage ? `${error.message}\n\n${usage}` : (error.stack ?? String(error)));
      // A command line that does not parse still leaves CI a report: one failed test case saying why.
      if (isUsage)
        await writeJunit(
          resolve(junitPathIn(argv)),
          setupFailureAsSuite("the command line", `usage: ${error.message}`, new Date()),
        ).catch(() => undefined);
    }
    return 2;
  }
}

async function run(argv: string[], usage: string): Promise<number> {
  const options = readSuiteOptions(argv, process.env);
  if (options.help) {
    console.log(usage);
    return 0;
  }
  const junitPath = resolve(options.junitPath);
  const startedAt = new Date();
  let local: LocalTarget | undefined;
  let target: Target;
  try {
    local = options.baseUrl ? undefined : await startLocal(options);
    target = local ? { ...local.target, ...given(options) } : { baseUrl: options.baseUrl!, ...given(options) };
    await probeTarget(target);
  } catch (error) {
    // A run that could not start still leaves CI a report: one failed test case saying why.
    const where = options.baseUrl ?? "a simulator started for this run";
    await writeJunit(junitPath, setupFailureAsSuite(where, (error as Error).message ?? String(error), startedAt));
    await local?.close();
    throw error;
  }
  try {
    if (options.fuzz !== undefined) return await fuzz(target, options.fuzz, options.seed, junitPath);
    console.log(
      `Contract suite against ` +
        `${target.baseUrl}${local ? " (a simulator started for this run)" : ""}${target.allowWrites ? ", writes allowed" : ", read-only"}`,
    );
    const report = await runContractSuite(target, {
      onResult: options.quiet ? undefined : (result) => console.log(progressLine(result)),
    });
    await writeJunit(junitPath, report);
    console.log(`\n${summary(report)}\nJUnit report: ${junitPath}`);
    return report.results.some((result) => result.status === "failed") ? 1 : 0;
  } finally {
    await local?.close();
  }
}

async function writeJunit(path: string, report: SuiteReport): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, junitXml(report));
}

async function fuzz(target: Target, runs: number, seed: number, junitPath: string): Promise<number> {
  console.log(
    `Fuzzing ${target.baseUrl} with ${runs} generated requests (--seed ` +
      `${seed})${target.allowWrites ? ", writes allowed" : ", read-only"}`,
  );
  const startedAt = new Date();
  const report = await runFuzz(target, { runs, seed, timeBoundMs: 10_000 });
  await writeJunit(junitPath, fuzzAsSuite(report, target.baseUrl, startedAt, Date.now() - startedAt.getTime()));
  console.log(`${fuzzSummary(report)}\nJUnit report: ${junitPath}`);
  return report.findings.length ? 1 : 0;
}

async function startLocal(options: SuiteOptions): Promise<LocalTarget> {
  // Compiles the contracts only when their sources changed; a --base-url run needs neither them nor Hardhat.
  // The installed package has no sources: it ships the compiled contracts.
  const prepareChain = fileURLToPath(new URL("../../scripts/prepare-chain.mjs", import.meta.url));
  if (existsSync(prepareChain)) execFileSync(process.execPath, [prepareChain], { stdio: "inherit" });
  process.stdout.write("Starting a simulator in process … ");
  const { startLocalTarget } = await import("./contract-target.ts");
  const local = await startLocalTarget({
    allowWrites: options.allowWrites,
    apiKey: options.apiKey,
    mintCollection: options.collection,
  }).catch((error: unknown) => {
    console.log();
    throw error;
  });
  console.log(local.sim.url);
  return local;
}

/** What the caller said overrides what the local simulator would use. */
function given({ allowWrites, ...options }: SuiteOptions): Omit<Target, "baseUrl"> {
  const keys = ["apiKey", "apiKeyIn", "collection", "tokenId", "chainId", "recipient"] as const;
  const said = keys.filter((key) => options[key] !== undefined);
  return { allowWrites, ...Object.fromEntries(said.map((key) => [key, options[key]])) };
}

await runAsScript(import.meta.url, contractTest);
