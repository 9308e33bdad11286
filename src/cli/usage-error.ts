import { StartError, START_ERRORS } from "../core/errors.ts";

/** A flag or environment variable the program cannot use: the CLI prints it with the usage text and exits 2. */
export function usageError(message: string): StartError {
  return new StartError(START_ERRORS.USAGE, message);
}
