import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Address, Hex } from "viem";
import { StartError, START_ERRORS } from "../../core/errors.ts";

/** A block by number and hash: the chain still holds it exactly when it answers this hash there. */
export interface BlockRef {
  block: number;
  hash: Hex;
}

/** What a run left on one chain: the core contracts, where they were deployed, and the world it loaded there. */
export interface RecordedChain {
  factory: Address;
  marketplace: Address;
  stablecoin: Address;
  /** The factory's block: indexing starts there. */
  deployedAt: BlockRef;
  /** The world (its id: scenario, time, uri base) replayed onto these contracts, and the head once it was in. */
  world: string;
  loadedAt: BlockRef;
}

/** The contracts file is unreadable or malformed. */
function contractsFileInvalid(message: string): StartError {
  return new StartError(START_ERRORS.CONTRACTS_FILE_INVALID, message);
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const HASH = /^0x[0-9a-f]{64}$/;

/**
 * `--contracts <file>`: per chain id, the contracts a first run deployed on a node and the world
 * it loaded there, so that a second run against the same node attaches instead of deploying.
 */
export class ContractsFile {
  readonly path: string;
  readonly #chains: Map<number, RecordedChain>;

  private constructor(path: string, chains: Map<number, RecordedChain>) {
    this.path = path;
    this.#chains = chains;
  }

  /** The file's records; none if it does not exist yet (the first run writes it). */
  static open(path: string): ContractsFile {
    if (!existsSync(path)) return new ContractsFile(path, new Map());
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw contractsFileInvalid(
        `--contracts ${path}: not a contracts file (${(error as Error).message.split("\n")[0]})`,
      );
    }
    const chains = new Map<number, RecordedChain>();
    for (const [id, record] of Object.entries((json as { chains?: object })?.chains ?? {})) {
      const problem = problemOf(record as RecordedChain);
      if (!/^\d+$/.test(id) || problem)
        throw contractsFileInvalid(`--contracts ${path}: chain '${id}': ${problem ?? "not a chain id"}`);
      chains.set(Number(id), record as RecordedChain);
    }
    return new ContractsFile(path, chains);
  }

  chain(chainId: number): RecordedChain | undefined {
    return this.#chains.get(chainId);
  }

  /** Records a chain and writes the whole file (a temporary file renamed over it, so a crash leaves the old one). */
  record(chainId: number, chain: RecordedChain): void {
    this.#chains.set(chainId, chain);
    const chains = Object.fromEntries([...this.#chains].sort(([a], [b]) => a - b));
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ chains }, null, 2)}\n`);
    renameSync(temporary, this.path);
  }
}

function problemOf(record: RecordedChain): string | undefined {
  if (typeof record !== "object" || record === null) return "not an object";
  for (const field of ["factory", "marketplace", "stablecoin"] as const)
    if (!ADDRESS.test(String(record[field]))) return `${field} is not a lower-case address`;
  for (const field of ["deployedAt", "loadedAt"] as const) {
    const ref = record[field];
    if (!Number.isSafeInteger(ref?.block) || !HASH.test(String(ref?.hash))) return `${field} is not { block, hash }`;
  }
  if (typeof record.world !== "string") return "world is not a string";
  return undefined;
}
