import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { harOf } from "../scenario/har.ts";
import { snapshotWorld, SNAPSHOT_DIR } from "../scenario/export.ts";
import { DEFAULT_WORLD_FILE, SNAPSHOT_BASE_URL } from "../scenario/world.ts";
import { UsageError } from "./usage-error.ts";

export const USAGE = `Usage: npm run fixtures:export -- [options]

Starts a simulator on a scenario (no JSON-RPC, any free port), snapshots its responses over HTTP
and stops it.

  --out <dir>          where the snapshot files go, replaced as a whole (default fixtures/snapshots)
  --har <file>         write the same responses as one HAR 1.2 file (then no --out unless given)
  --fixture <file>     the scenario (default the default world)
  --public-url <url>   base URL in collection uris and HAR URLs (default ${SNAPSHOT_BASE_URL})
  -h, --help           show this help`;

/** Every flag `fixtures export` takes (its --help lists each: test/api/cli.test.ts checks). */
export const EXPORT_FLAGS = {
  out: { type: "string" },
  fixture: { type: "string" },
  har: { type: "string" },
  "public-url": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/**
 * `npm run fixtures:export` and `nft-sim fixtures export`. Resolves with the exit code:
 * 0 done, 1 failed, 2 usage error.
 */
export async function exportFixtures(argv: string[], usage = USAGE, defaultOut = SNAPSHOT_DIR): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: EXPORT_FLAGS,
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      console.log(usage);
      return 0;
    }
    const publicUrl = (values["public-url"] ?? SNAPSHOT_BASE_URL).replace(/\/+$/, "");
    if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(publicUrl)) throw new UsageError(`--public-url: '${publicUrl}' is not an http(s) URL`);
    await write(values, publicUrl, defaultOut);
    return 0;
  } catch (caught) {
    const error = caught as Error & { code?: string };
    if (error instanceof UsageError || String(error.code).startsWith("ERR_PARSE_ARGS")) {
      console.error(`${error.message}\n\n${usage}`);
      return 2;
    }
    console.error(error.stack ?? String(error));
    return 1;
  }
}

async function write(values: { out?: string; fixture?: string; har?: string }, publicUrl: string, defaultOut: string): Promise<void> {
  const started = performance.now();
  const snapshots = await snapshotWorld(values.fixture ? resolve(values.fixture) : DEFAULT_WORLD_FILE, publicUrl);
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  if (values.har) {
    const { name, version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
    const har = harOf(snapshots.filter(({ status }) => status > 0), publicUrl, { name, version });
    writeFileSync(values.har, `${JSON.stringify(har, null, 2)}\n`);
    console.log(`${values.har}: ${har.log.entries.length} responses on ${publicUrl}, in ${seconds()} s`);
  }
  if (values.out || !values.har) {
    const out = values.out ? resolve(values.out) : defaultOut;
    rmSync(out, { recursive: true, force: true });
    let bytes = 0;
    for (const { file, body } of snapshots) {
      mkdirSync(dirname(join(out, file)), { recursive: true });
      writeFileSync(join(out, file), body);
      bytes += Buffer.byteLength(body);
    }
    console.log(`${relative(process.cwd(), out) || out}: ${snapshots.length} files, ${(bytes / 1e6).toFixed(2)} MB, in ${seconds()} s`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await exportFixtures(process.argv.slice(2)));
