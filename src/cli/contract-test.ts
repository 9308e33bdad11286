import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { junitXml } from "../contract-suite/report/junit.ts";
import { progressLine, summary } from "../contract-suite/report/summary.ts";
import { failedChecks, runContractSuite } from "../contract-suite/suite.ts";
import type { Target } from "../contract-suite/target.ts";
import type { LocalTarget } from "./contract-target.ts";
import { readSuiteOptions, USAGE, UsageError, type SuiteOptions } from "./contract-test-options.ts";

async function main(): Promise<number> {
  const options = readSuiteOptions(process.argv.slice(2), process.env);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const local = options.baseUrl ? undefined : await startLocal(options);
  try {
    const target = local ? { ...local.target, ...given(options) } : { baseUrl: options.baseUrl!, ...given(options) };
    console.log(`Contract suite against ${target.baseUrl}${local ? " (a simulator started for this run)" : ""}${target.allowWrites ? ", writes allowed" : ", read-only"}`);
    const report = await runContractSuite(target, { onResult: options.quiet ? undefined : (result) => console.log(progressLine(result)) });
    const junitPath = resolve(options.junitPath);
    await mkdir(dirname(junitPath), { recursive: true });
    await writeFile(junitPath, junitXml(report));
    console.log(`\n${summary(report)}\nJUnit report: ${junitPath}`);
    return failedChecks(report).length ? 1 : 0;
  } finally {
    await local?.close();
  }
}

async function startLocal(options: SuiteOptions): Promise<LocalTarget> {
  process.stdout.write("Starting a simulator in process … ");
  // Loaded only here: testing a remote deployment needs neither Hardhat nor the contracts.
  const { startLocalTarget } = await import("./contract-target.ts");
  const local = await startLocalTarget({ allowWrites: options.allowWrites });
  console.log(local.sim.url);
  return local;
}

/** What the caller said overrides what the local simulator would use. */
function given(options: SuiteOptions): Omit<Target, "baseUrl"> {
  const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    allowWrites: options.allowWrites,
    ...defined({ apiKey: options.apiKey, collection: options.collection, tokenId: options.tokenId, chainId: options.chainId, recipient: options.recipient }),
  };
}

main().then(
  (code) => process.exit(code),
  (error: Error & { code?: string }) => {
    const usage = error instanceof UsageError || String(error.code).startsWith("ERR_PARSE_ARGS");
    console.error(usage ? `${error.message}\n\n${USAGE}` : (error.stack ?? String(error)));
    process.exit(2);
  },
);
