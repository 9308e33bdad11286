// The catalog's other half (./error-catalog.ts holds what the API answers): why a command refuses to start. Each
// descriptor is a kind of refusal and the exit code it ends the command with; the throwing code names the descriptor
// and tells the one line (`new StartError(START_ERRORS.X, message)`), the command prints it and exits with the code.

export interface StartErrorDescriptor {
  /** 2: the command as given cannot run (fix the flags or the files they name); 1: it could not start. */
  exitCode: 1 | 2;
  /** The command's usage text follows the message. */
  usage: boolean;
  /** What it means (one sentence, the user's view). */
  means: string;
}

const refusal = (exitCode: 1 | 2, usage: boolean, means: string): StartErrorDescriptor => ({ exitCode, usage, means });

export const START_ERRORS = {
  USAGE: refusal(2, true, "a flag or environment variable the command cannot use"),
  WORLD_CHOICE: refusal(2, true, "a world that does not exist, or chains that leave out one the world uses"),
  RPC_UNGUARDED: refusal(2, true, "JSON-RPC ports served off loopback without an admin token"),
  STATE_LOCKED: refusal(2, false, "another simulator, still running, holds the --state directory"),
  TARGET_UNUSABLE: refusal(2, false, "the contract suite's target cannot be reached, or not used as the flags say"),
  SCENARIO_INVALID: refusal(1, false, "a scenario file that cannot be read, is not JSON, or breaks the format"),
  REPLAY_FAILED: refusal(1, false, "a step of the world a chain refused while the world was replayed"),
  JOURNAL_REFUSED: refusal(1, false, "a --state journal that is damaged, of another world or format, or not writable"),
  NODE_REFUSED: refusal(1, false, "a node (--rpc-url) the world cannot be loaded onto or attached to as asked"),
  KEYS_FILE_INVALID: refusal(1, false, "--keys (or SIM_KEYS) that cannot be read or does not hold usable keys"),
  CONTRACTS_FILE_INVALID: refusal(1, false, "a --contracts file that cannot be read or does not record contracts"),
  IMPORT_UPSTREAM: refusal(
    2,
    false,
    "an import's upstream that is not this API, or could not be read past every try (a rerun resumes from the cache)",
  ),
  IMPORT_COLLECTION: refusal(1, false, "a collection to import that the upstream does not have, or on another chain"),
} as const satisfies Record<string, StartErrorDescriptor>;
