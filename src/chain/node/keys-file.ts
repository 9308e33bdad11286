import { readFileSync } from "node:fs";
import type { Hex } from "viem";
import type { GivenKeys } from "../../core/config.ts";
import { StartError, START_ERRORS } from "../../core/errors.ts";

/** The keys file is unreadable or malformed; the message names the field, never a key. */
function keysFileInvalid(message: string): StartError {
  return new StartError(START_ERRORS.KEYS_FILE_INVALID, message);
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * Reads `{ "deployer": "0x…", "accounts": { "<name>": "0x…" | ["0x…", …] } }` from `--keys <file>`, or the same
 * JSON from the SIM_KEYS environment variable. Undefined when neither is given. An account given a list of keys has a
 * pool of wallets: the first is its own, and its API key's mints are signed by whichever of them is free.
 */
export function readGivenKeys(file: string | undefined, env: NodeJS.ProcessEnv): GivenKeys | undefined {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw keysFileInvalid(`--keys ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    return parseGivenKeys(text, `--keys ${file}`);
  }
  return env.SIM_KEYS ? parseGivenKeys(env.SIM_KEYS, "SIM_KEYS") : undefined;
}

export function parseGivenKeys(text: string, source: string): GivenKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the fault, which may be a key.
    throw keysFileInvalid(
      `${source}: not JSON; expected { "deployer": "0x…", "accounts": { "<account name>": "0x…" or ["0x…", …] } }`,
    );
  }
  const { deployer, accounts = {}, ...rest } = (json ?? {}) as { deployer?: unknown; accounts?: unknown };
  const problems: string[] = Object.keys(rest).map((field) => `unknown field '${field}' (expected deployer, accounts)`);
  if (typeof json !== "object" || json === null || Array.isArray(json)) problems.push("must be an object");
  if (deployer !== undefined && !isKey(deployer)) problems.push("deployer is not a private key (0x and 64 hex digits)");
  if (typeof accounts !== "object" || accounts === null || Array.isArray(accounts))
    problems.push("accounts must be an object of account name → private key (or a list of them: its pool)");
  const entries = Object.entries(accounts as object);
  const seen = new Map<string, string>();
  for (const [name, given] of entries) {
    const keys: unknown[] = Array.isArray(given) ? given : [given];
    if (Array.isArray(given) && given.length === 0) problems.push(`accounts.${name} is an empty list of keys`);
    keys.forEach((key, i) => {
      const field = Array.isArray(given) ? `accounts.${name}[${i}]` : `accounts.${name}`;
      if (!isKey(key)) return problems.push(`${field} is not a private key (0x and 64 hex digits)`);
      const other = seen.get(key.toLowerCase());
      if (other) problems.push(`${field} is the same key as ${other}: a wallet signs for one account`);
      seen.set(key.toLowerCase(), field);
    });
  }
  if (problems.length > 0) throw keysFileInvalid(`${source}: ${problems.join("; ")}`);
  const pools = entries.filter(([, given]) => Array.isArray(given) && given.length > 1) as [string, Hex[]][];
  return {
    ...(deployer ? { deployer: deployer as Hex } : {}),
    accounts: new Map(entries.map(([name, given]) => [name, [given].flat()[0] as Hex])),
    ...(pools.length > 0 ? { pools: new Map(pools) } : {}),
  };
}

/** Every key given for the accounts: each account's own, and the other wallets of its pool. */
export function accountKeys(keys: GivenKeys): Hex[] {
  return [...keys.accounts].flatMap(([name, key]) => keys.pools?.get(name) ?? [key]);
}

function isKey(value: unknown): value is Hex {
  return typeof value === "string" && PRIVATE_KEY.test(value);
}

/**
 * Replaces every given key in `text` (an error message, a stack), in any case, with or without 0x, with a placeholder.
 */
export function redactKeys(text: string, keys: GivenKeys | undefined): string {
  if (!keys) return text;
  let redacted = text;
  for (const key of [keys.deployer, ...accountKeys(keys)])
    if (key)
      redacted = redacted.replace(
        new RegExp(`(0x)?${key.slice(2)}`, "gi"),
        (_, prefix: string | undefined) => `${prefix ? "0x" : ""}<key>`,
      );
  return redacted;
}
