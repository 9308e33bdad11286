#!/usr/bin/env node
// `nft-sim`, the command the package installs. Each subcommand is loaded only when asked for,
// so `nft-sim contract-test --base-url …` never loads Hardhat. Exit codes: 0 done, 1 failed,
// 2 usage error (contract-test: 1 a contract violation, 2 the suite could not run).
import { nodeRefused, exitAfterOutput } from "./command-line.ts";

const USAGE = `Usage: nft-sim <command> [options]

Commands:
  simulate          start the simulator: chains, the default world, the API (Ctrl-C stops)
  contract-test     run the API contract suite against a deployment or a local simulator
  proxy             pass requests on to a deployment and check each answer with the contract suite
  fixtures export   snapshot the simulator's responses to files (or a HAR file)
  openapi           print (or write) the OpenAPI document of the API
  import            read live collections through the API into a world file, and report how faithfully it replays
  dev-keys          write a keys file (--keys) from a local dev node's well-known, public accounts

'nft-sim <command> --help' tells a command's options.`;

type Command = (argv: string[]) => Promise<number | undefined>;

/**
 * A command's usage text as `nft-sim` runs it: each npm script it names (its own first, then any it points to) is
 * the command of that name ("fixtures:export" is "fixtures export").
 */
const own = (usage: string) =>
  usage.replace(/npm run ([\w:-]+)(?: --)?/g, (_, script: string) => `nft-sim ${script.replace(":", " ")}`);

const COMMANDS: Record<string, Command> = {
  simulate: async (argv) => (await import("./simulate.ts")).simulate(argv, own((await import("./options.ts")).USAGE)),
  "contract-test": async (argv) =>
    (await import("./contract-test.ts")).contractTest(argv, own((await import("./contract-test-options.ts")).USAGE)),
  proxy: async (argv) => (await import("./proxy.ts")).runProxy(argv),
  "fixtures export": async (argv) => {
    const { exportFixtures, USAGE } = await import("./fixtures-export.ts");
    const usage = own(USAGE).replace("(default fixtures/snapshots)", "(default ./snapshots)");
    return exportFixtures(argv, usage, "snapshots");
  },
  import: async (argv) => {
    const { importCommand, USAGE } = await import("./import.ts");
    return importCommand(argv, own(USAGE));
  },
  "dev-keys": async (argv) => {
    const { writeDevKeys, USAGE } = await import("./dev-keys.ts");
    return writeDevKeys(argv, own(USAGE));
  },
  openapi: async (argv) => {
    const { writeOpenApi, NFT_SIM_USAGE } = await import("./openapi.ts");
    return writeOpenApi(argv, NFT_SIM_USAGE, null);
  },
};

async function main(argv: string[]): Promise<number | undefined> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === "-h" || first === "--help" || first === "help") {
    (first === undefined ? console.error : console.log)(USAGE);
    return first === undefined ? 2 : 0;
  }
  if (nodeRefused()) return 1;
  if (first === "fixtures") {
    if (second === "export") return COMMANDS["fixtures export"]!(rest);
    if (second === "-h" || second === "--help") {
      console.log("Usage: nft-sim fixtures export [options]\n\n'nft-sim fixtures export --help' tells its options.");
      return 0;
    }
    console.error(
      `nft-sim fixtures: ${second === undefined ? "a subcommand is missing" : `unknown subcommand '${second}'`} (there is 'export')\n\n${USAGE}`,
    );
    return 2;
  }
  const command = COMMANDS[first];
  if (!command) {
    console.error(`nft-sim: unknown command '${first}'\n\n${USAGE}`);
    return 2;
  }
  return command(argv.slice(1));
}

const code = await main(process.argv.slice(2));
if (code !== undefined) await exitAfterOutput(code);
