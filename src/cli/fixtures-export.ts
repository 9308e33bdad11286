import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { harOf } from "../scenario/har.ts";
import { EXPORT_MARKER, snapshotWorld, SNAPSHOT_DIR } from "./export-snapshots.ts";
import { DEFAULT_WORLD_FILE, SNAPSHOT_BASE_URL } from "../scenario/worlds.ts";
import { commandLine, exitOn, httpUrlOption, usageError, runAsScript, texts, switches, HELP } from "./command-line.ts";

export const USAGE = `Usage: npm run fixtures:export -- [options]

Starts a simulator on a scenario (no JSON-RPC, any free port), snapshots its responses over HTTP
and stops it.

  --out <dir>          where the snapshot files go (default fixtures/snapshots); the folder is replaced as a
                       whole, so it must be new, empty, or one an earlier export wrote (it has ${EXPORT_MARKER})
  --force              replace an --out folder that an export did not write (never the current folder
                       or one above it)
  --har <file>         write the same responses as one HAR 1.2 file (then no --out unless given)
  --fixture <file>     the scenario (default the default world)
  --public-url <url>   base URL in collection uris and HAR URLs (default ${SNAPSHOT_BASE_URL})
  -h, --help           show this help`;

/** Every flag `fixtures export` takes (its --help lists each: test/cli/simulate.test.ts checks). */
export const EXPORT_FLAGS = { ...texts("out fixture har public-url"), ...switches("force"), ...HELP } as const;

/**
 * `npm run fixtures:export` and `nft-sim fixtures export`. Resolves with the exit code:
 * 0 done, 1 failed, 2 usage error.
 */
export async function exportFixtures(argv: string[], usage = USAGE, defaultOut = SNAPSHOT_DIR): Promise<number> {
  const line = commandLine({ args: argv, options: EXPORT_FLAGS }, usage);
  if (typeof line === "number") return line;
  const { values } = line;
  try {
    const publicUrl = httpUrlOption("--public-url", (values["public-url"] ?? SNAPSHOT_BASE_URL).replace(/\/+$/, ""))!;
    const out = values.out || !values.har ? resolve(values.out ?? defaultOut) : undefined;
    if (out) checkReplaceable(out, values.force);
    await write({ ...values, out }, publicUrl);
    return 0;
  } catch (error) {
    return exitOn(error, usage, (failure) => failure.stack ?? String(failure));
  }
}

/**
 * The folder --out names is deleted and written again: only if it is new, empty or an export's own (or --force, short
 * of the folder we are in).
 */
function checkReplaceable(out: string, force: boolean): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory())
    throw usageError(`--out ${out}: it is a file, not a folder; give a new or empty folder`);
  const here = resolve(process.cwd());
  if (here === out || here.startsWith(out.endsWith(sep) ? out : out + sep)) {
    throw usageError(
      `--out ${out}: that is the current folder${here === out ? "" : " or one above it"}, which the export would ` +
        `delete as a whole; give a new or empty folder`,
    );
  }
  const entries = readdirSync(out);
  if (entries.length === 0 || entries.includes(EXPORT_MARKER) || force) return;
  throw usageError(
    `--out ${out}: the folder holds ${entries.length} file(s) that no export wrote (there is no ${EXPORT_MARKER} in ` +
      `it), and the export would delete them; ` +
      "give a new or empty folder, or --force to replace it",
  );
}

async function write(values: { out?: string; fixture?: string; har?: string }, publicUrl: string): Promise<void> {
  const started = performance.now();
  const snapshots = await snapshotWorld(values.fixture ? resolve(values.fixture) : DEFAULT_WORLD_FILE, publicUrl);
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  if (values.har) {
    const { name, version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const responses = snapshots.filter(({ status }) => status > 0);
    const har = harOf(responses, publicUrl, { name, version });
    mkdirSync(dirname(resolve(values.har)), { recursive: true });
    writeFileSync(values.har, `${JSON.stringify(har, null, 2)}\n`);
    console.log(`${values.har}: ${har.log.entries.length} responses on ${publicUrl}, in ${seconds()} s`);
  }
  if (values.out) {
    const out = values.out;
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, EXPORT_MARKER),
      "Written by `nft-sim fixtures export` (nft-service-simulator): the next export into this folder replaces it as " +
        "a whole.\n",
    );
    let bytes = 0;
    for (const { file, body } of snapshots) {
      mkdirSync(dirname(join(out, file)), { recursive: true });
      writeFileSync(join(out, file), body);
      bytes += Buffer.byteLength(body);
    }
    console.log(
      `${relative(process.cwd(), out) || out}: ${snapshots.length} files, ${(bytes / 1e6).toFixed(2)} MB, in ` +
        `${seconds()} s`,
    );
  }
}

await runAsScript(import.meta.url, exportFixtures);
