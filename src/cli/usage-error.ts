/** A flag or environment variable the program cannot use; the CLI prints it with the usage text. */
export class UsageError extends Error {}
