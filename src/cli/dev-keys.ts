import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { fixtureFile } from "../scenario/worlds.ts";
import { commandLine, runAsScript, texts, switches, HELP } from "./command-line.ts";

/** The mnemonic every anvil and Hardhat node derives the accounts it funds at start from. */
export const DEV_NODE_MNEMONIC = "test test test test test test test test test test test junk";
/** Accounts a dev node funds unless told otherwise: anvil 10, Hardhat's node 20. */
const ANVIL_FUNDS = 10;
const DEFAULT_ACCOUNTS = ["studio", "arcade", "guest"];

export const USAGE = `Usage: npm run dev-keys -- [options]

Writes a keys file for --keys from the accounts a local dev node (anvil, Hardhat's node) funds at start, derived from
their well-known mnemonic ("test test … junk"): the first deploys the contracts, the next are the accounts. These keys
are public: use them on a local dev node only, never on a chain whose coin is worth anything.

  --out <file>          where to write it (default: standard output)
  --accounts <names>    the accounts, comma-separated (default studio,arcade,guest: with --fixture none, the API keys
                        sim-studio, sim-arcade and sim-guest)
  --fixture <world>     one account for each of this world's instead: default, demo, or a scenario file
  --force               replace an --out file that exists
  -h, --help            show this help`;

const DEV_KEYS_FLAGS = { ...texts("out accounts fixture"), ...switches("force"), ...HELP } as const;

/** `npm run dev-keys` and `nft-sim dev-keys`. Resolves with the exit code: 0 written, 1 failed, 2 usage error. */
export async function writeDevKeys(argv: string[], usage = USAGE): Promise<number> {
  const line = commandLine({ args: argv, options: DEV_KEYS_FLAGS }, usage, ({ values }) => {
    if (values.accounts !== undefined && values.fixture !== undefined)
      throw new Error("--accounts and --fixture both name the accounts: give one");
  });
  if (typeof line === "number") return line;
  const { values } = line;
  let names = values.accounts?.split(",").map((name) => name.trim()) ?? DEFAULT_ACCOUNTS;
  if (values.fixture !== undefined) {
    try {
      const file = fixtureFile(values.fixture === "default" ? undefined : values.fixture);
      names = (JSON.parse(readFileSync(file, "utf8")) as { accounts: { name: string }[] }).accounts.map(
        ({ name }) => name,
      );
    } catch (error) {
      console.error(
        `--fixture ${values.fixture}: cannot read its accounts (${(error as Error).message.split("\n")[0]})`,
      );
      return 1;
    }
  }
  if (names.length === 0 || names.some((name) => !/^[A-Za-z0-9._-]+$/.test(name))) {
    console.error(`--accounts: names of letters, digits, '.', '_' and '-', comma-separated, not '${values.accounts}'`);
    return 2;
  }
  // The keys file: account #0 deploys, #1… are the named accounts.
  const key = (addressIndex: number) =>
    toHex(mnemonicToAccount(DEV_NODE_MNEMONIC, { addressIndex }).getHdKey().privateKey!);
  const keys = { deployer: key(0), accounts: Object.fromEntries(names.map((name, i) => [name, key(i + 1)])) };
  const text = `${JSON.stringify(keys, null, 2)}\n`;
  if (values.out === undefined) process.stdout.write(text);
  else {
    if (existsSync(values.out) && !values.force) {
      console.error(`${values.out} exists: --force replaces it`);
      return 1;
    }
    writeFileSync(values.out, text, { mode: 0o600 });
  }
  const beyond =
    names.length + 1 > ANVIL_FUNDS ? ` (anvil funds ${ANVIL_FUNDS}: start it with --accounts ${names.length + 1})` : "";
  console.error(
    `${values.out === undefined ? "The keys above:" : `Wrote ${values.out}:`} the deployer and ${names.length} account` +
      `${names.length === 1 ? "" : "s"} (${names.join(", ")}), the dev node's accounts #0 to #${names.length}${beyond}. ` +
      "These keys are public (every anvil and Hardhat node derives them from the same mnemonic): use them on a local " +
      "dev node only.",
  );
  return 0;
}

await runAsScript(import.meta.url, writeDevKeys);
