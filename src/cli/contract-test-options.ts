import { parseArgs } from "node:util";
import { integerOption, usageError, texts, switches, HELP } from "./command-line.ts";

export const DEFAULT_JUNIT_PATH = "contract-test-results.xml";

export const USAGE = `Usage: npm run contract-test -- [options]

Runs the API contract suite against a deployment, or against a simulator it starts itself.

  --base-url <url>     the deployment to test, e.g. https://api.example.com (env BASE_URL);
                       without it a simulator is started in process and stopped afterwards
  --api-key <key>      API key for the mint checks                       (env API_KEY)
  --api-key-in <where> send it as the apiKey query parameter or the ALTURA_API_KEY header
                       (query or header; the original takes both)        (default query)
  --collection <addr>  a collection known to exist; its item --token-id should have a history.
                       With --allow-writes the mint goes there, so --api-key must be allowed to mint on it;
                       required then with --base-url (the local simulator finds one the key mints on)
  --token-id <id>      an item of that collection                        (default 1)
  --chain-id <id>      the chain of that collection                      (default: as the collection says)
  --recipient <addr>   who receives the one mint of --allow-writes       (default: the collection's owner)
  --allow-writes       mint one item on the target (never done by default)
  --junit <path>       where to write the JUnit XML report               (default ${DEFAULT_JUNIT_PATH})
  --quiet              print only the violations and the totals
  --fuzz <n>           instead of the checks, send <n> requests generated from the route table's schemas
                       (valid, boundary and invalid values, wrong types, odd encodings) and check each
                       answer: a documented status, a body its schema accepts, no 5xx, in time, a refused
                       request accepted by none, nothing changed by a refused one; a failure is shrunk
                       to the smallest request that still fails and printed as a curl line
  --seed <s>           the fuzzer's seed, to repeat a run             (default: a random one, printed)
  -h, --help           show this help

Before any check, one probe: the target must answer JSON at /api/v2/collection, have the --collection
given, and (with --allow-writes) accept the --api-key. If not, the suite stops with one line saying
what failed and what to pass.

Exit code: 0 when every check passed or was skipped, 1 on any contract violation, 2 when the suite
could not run (a bad flag, a target that cannot be reached or is not the API, a refused API key or
collection, or a local simulator that did not start).`;

/** Every flag `contract-test` takes (its --help lists each: test/cli/simulate.test.ts checks). */
export const SUITE_FLAGS = {
  ...texts("base-url api-key api-key-in collection token-id chain-id recipient junit fuzz seed"),
  ...switches("allow-writes quiet"),
  ...HELP,
} as const;

/**
 * The target as the flags describe it (no base URL: start a simulator), and how to report (`fuzz`: requests to generate
 * instead of the checks). Flags first, then BASE_URL / API_KEY from the environment.
 */
export function readSuiteOptions(argv: string[], env: NodeJS.ProcessEnv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: SUITE_FLAGS,
  });
  const baseUrl = values["base-url"] ?? (env.BASE_URL || undefined);
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl))
    throw usageError(`--base-url: '${baseUrl}' is not an http(s) URL`);
  return {
    baseUrl,
    apiKey: values["api-key"] ?? (env.API_KEY || undefined),
    apiKeyIn: apiKeyIn(values["api-key-in"]),
    collection: address("--collection", values.collection),
    tokenId: integer("--token-id", values["token-id"], 0),
    chainId: integer("--chain-id", values["chain-id"], 1),
    recipient: address("--recipient", values.recipient),
    allowWrites: values["allow-writes"],
    junitPath: values.junit ?? DEFAULT_JUNIT_PATH,
    quiet: values.quiet,
    fuzz: integer("--fuzz", values.fuzz, 1),
    seed: integer("--seed", values.seed, 0) ?? Math.floor(Math.random() * 2 ** 31),
    help: values.help,
  };
}
export type SuiteOptions = ReturnType<typeof readSuiteOptions>;

function apiKeyIn(text: string | undefined): "query" | "header" | undefined {
  if (text !== undefined && text !== "query" && text !== "header")
    throw usageError(`--api-key-in: '${text}' is neither query nor header`);
  return text;
}

function address(flag: string, text: string | undefined): string | undefined {
  if (text !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(text))
    throw usageError(`${flag}: '${text}' is not a 0x-prefixed 20-byte address`);
  return text;
}

function integer(flag: string, text: string | undefined, min: number): number | undefined {
  return text === undefined ? undefined : integerOption(flag, text, min);
}

/**
 * Where the JUnit report goes, read from a command line that may not parse (a usage error still leaves CI a report):
 * the last `--junit <path>` or `--junit=<path>`, else the default.
 */
export function junitPathIn(argv: string[]): string {
  let path = DEFAULT_JUNIT_PATH;
  argv.forEach((arg, i) => {
    if (arg === "--junit" && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) path = argv[i + 1]!;
    else if (arg.startsWith("--junit=")) path = arg.slice("--junit=".length);
  });
  return path;
}
