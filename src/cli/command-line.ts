import { parseArgs, type ParseArgsConfig } from "node:util";
import { nodeTooOld } from "../core/node-version.ts";

type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/**
 * A command's arguments as parseArgs reads them, then `check`ed (a value the command cannot take throws); or the exit
 * code when nothing is left to do: 0 after --help (the usage text printed), 2 when they cannot be taken (told with the
 * usage text, after `prefix`).
 */
export function commandLine<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
  check: (parsed: Parsed<T>) => void = () => {},
  prefix = "",
): Parsed<T> | 0 | 2 {
  try {
    const parsed = parseArgs(config);
    if ((parsed.values as { help?: boolean }).help) return (console.log(usage), 0);
    check(parsed);
    return parsed;
  } catch (error) {
    console.error(`${prefix}${(error as Error).message}\n\n${usage}`);
    return 2;
  }
}

/** Whether this Node.js is too old for the command, told on stderr when it is (the command exits 1). */
export function nodeRefused(): boolean {
  const tooOld = nodeTooOld();
  if (tooOld) console.error(tooOld);
  return tooOld !== undefined;
}
