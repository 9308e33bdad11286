import { writeFileSync } from "node:fs";
import type { Recording } from "../proxy/record.ts";
import { startProxy, type RunningProxy } from "../proxy/server.ts";
import { commandLine, integerOption, texts, switches, HELP } from "./command-line.ts";

export const USAGE = `Usage: nft-sim proxy --upstream <base-url> [options]

Listens as the simulator does (on loopback) and passes every request on to the upstream unchanged,
answering with the upstream's answer; each answer of the API is checked with the contract suite's
checks of its operation (status, JSON Schema, paging, sort order, filters, count, history order,
id shapes). Each violation is one line on stderr, a 'violations' field in GET /_sim/requests and an
event on GET /_sim/events; API keys and Authorization are masked in all of them.

  --upstream <url>     the deployment to pass requests on to, e.g. https://api.example.com (required)
  --port <port>        the port to listen on (0: any free one)          (default 3000)
  --junit <path>       at exit, write every violation as a failed JUnit test case there
  --record <file>      at exit, write every collection the traffic read (a collection, a list page's,
                       an item history's) as a world there, through the import against the upstream:
                       the answers the traffic read are reused, the rest fetched; serve it with
                       --fixture <file>. Reads send IMPORT_API_KEY (if set) as the key header, never
                       a key the traffic carried
  --strict             answer 502 with the violations (the error body, CONTRACT_VIOLATION) instead
                       of an answer that breaks the interface
  -h, --help           show this help

Ctrl-C stops. Exit code: 0 when no answer broke the interface, 1 when one did or --record could not
write its world, 2 on a bad flag or a port it cannot listen on.`;

/** Every flag `proxy` takes (its --help lists each). */
export const PROXY_FLAGS = { ...texts("upstream port junit record"), ...switches("strict"), ...HELP } as const;

/** `nft-sim proxy`. Resolves with the exit code once stopped (SIGINT/SIGTERM): 0 clean, 1 violations, 2 usage. */
export async function runProxy(argv: string[], usage = USAGE): Promise<number> {
  let upstream!: URL;
  let port!: number;
  const line = commandLine({ args: argv, options: PROXY_FLAGS }, usage, ({ values }) => {
    upstream = upstreamOf(values.upstream);
    port = values.port === undefined ? 3000 : integerOption("--port", values.port, 0, 65_535);
  });
  if (typeof line === "number") return line;
  const { values } = line;
  let proxy: RunningProxy;
  try {
    proxy = await startProxy(
      { upstream, strict: values.strict, record: values.record !== undefined, tell: (line) => console.error(line) },
      port,
    );
  } catch (error) {
    console.error(`nft-sim proxy: cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
    return 2;
  }
  const shown = `${upstream.origin}${upstream.pathname === "/" ? "" : upstream.pathname}`;
  console.log(
    `nft-sim proxy: ${proxy.url} → ${shown}${values.strict ? " (strict: a breaking answer is 502)" : ""}; ` +
      `control API at /_sim. Ctrl-C stops`,
  );
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  await proxy.close();
  const { findings } = proxy;
  if (values.junit !== undefined) writeFileSync(values.junit, findings.junit(shown));
  const broken = findings.found.length;
  console.error(`nft-sim proxy: ${broken} answer${broken === 1 ? "" : "s"} broke the interface`);
  const recorded = proxy.recording && values.record !== undefined ? await record(proxy.recording, values.record) : true;
  return broken > 0 || !recorded ? 1 : 0;
}

/** `--record`: the world written, told in one line; false when it could not be. */
async function record(recording: Recording, file: string): Promise<boolean> {
  try {
    if (recording.collections.length === 0) {
      console.log(`nft-sim proxy: the traffic read no collection; ${file} not written`);
      return true;
    }
    const recorded = await recording.write(file, process.env.IMPORT_API_KEY || undefined);
    console.log(
      `nft-sim proxy: recorded ${recorded.collections} collection${recorded.collections === 1 ? "" : "s"} in ${file} ` +
        `(${recorded.fromTraffic} answers from the traffic, ${recorded.fetched} fetched)`,
    );
    return true;
  } catch (error) {
    console.error(`nft-sim proxy: --record: ${file} not written: ${(error as Error).message}`);
    return false;
  } finally {
    recording.discard();
  }
}

function upstreamOf(text: string | undefined): URL {
  if (text === undefined) throw new Error("--upstream is required: the base URL to pass requests on to");
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== "http:" && url?.protocol !== "https:")
    throw new Error(`--upstream: '${text}' is not an http(s) URL`);
  if (url.search !== "" || url.hash !== "") throw new Error(`--upstream: '${text}' has a query or a fragment`);
  return url;
}
