import { forkedArguments } from "./fork.ts";
import { relative } from "node:path";
import { redactKeys } from "../chain/node/keys-file.ts";
import type { GivenKeys } from "../core/config.ts";
import { isLoopbackHost } from "../access/policy.ts";
import { StartError } from "../core/errors.ts";
import { chooseWorld, fixtureFile } from "../scenario/worlds.ts";
import { startSimulator } from "../simulator/simulator.ts";
import { banner } from "./banner.ts";
import { replayDisplay } from "./progress.ts";
import { reloadOnChange } from "./watch.ts";
import { readOptions, USAGE } from "./options.ts";
import { runAsScript, nodeRefused } from "./command-line.ts";

/**
 * `npm run simulate` and `nft-sim simulate`: starts the simulator and serves until Ctrl-C.
 * Resolves once it serves (the open ports keep the process alive), or with an exit code:
 * 0 after --help, 1 when it could not start, 2 on a usage error or a --state directory another simulator holds (each
 * told on stderr).
 */
export async function simulate(argv: string[], usage = USAGE): Promise<number | undefined> {
  const given: { keys?: GivenKeys } = {};
  try {
    const forked = await forkedArguments(argv);
    if (!Array.isArray(forked)) return (console.error(forked.line), forked.code);
    return await serve(forked, usage, given);
  } catch (error) {
    return failure(error as Error & { code?: string; port?: number }, usage, given.keys);
  }
}

async function serve(argv: string[], usage: string, given: { keys?: GivenKeys }): Promise<number | undefined> {
  if (nodeRefused()) return 1;
  const { help, watch, fixture, wallClock, publicUrl, chainsGiven, keys, ...flags } = readOptions(argv, process.env);
  given.keys = flags.givenKeys;
  if (help) {
    console.log(usage);
    return 0;
  }
  const choice = { fixture, wallClock, publicUrl, chainsGiven, keys };
  const display = replayDisplay();
  const { world, options, summary, clock } = chooseWorld(choice, flags, (progress) => display.update(progress));
  console.log(summary);
  let sim = await startSimulator(world, options).catch((error: unknown) => {
    display.stop();
    throw error;
  });
  // performance.now() counts from the process start, module loading included.
  const readyInMs = performance.now();
  if (sim.load.source !== "replay") {
    const [from, replayed] =
      sim.load.source === "cache"
        ? [`the cached world (${relative(process.cwd(), sim.load.cachedIn!) || "."})`, "it"]
        : [`the journal in ${options.stateDir} (its checkpoint and the lines after it)`, "the world and the journal"];
    console.log(
      `Answering from ${from} after ${(readyInMs / 1000).toFixed(1)} s; the chains replay ${replayed} meanwhile, and ` +
        "writes wait for them",
    );
  }
  const controlOn = isLoopbackHost(options.host) || options.adminToken !== undefined;
  let stopping = false;
  sim.live.then(
    async () => {
      display.stop();
      const chainsInMs = sim.load.source !== "replay" ? performance.now() : undefined;
      console.log(
        await banner(sim, { readyInMs, ...(chainsInMs ? { chainsInMs } : {}) }, clock, {
          controlOn,
          ...(options.stateDir ? { stateDir: options.stateDir } : {}),
          ...(sim.load.cacheDir ? { cacheDir: sim.load.cacheDir } : {}),
        }),
      );
    },
    async (error: unknown) => {
      display.stop();
      if (stopping) return;
      console.error(
        redactKeys(`The chains could not load the world: ${(error as Error).message ?? error}`, given.keys),
      );
      await sim.close();
      process.exit(1);
    },
  );
  let stopWatching = () => {};
  if (watch) {
    // The same ports and uris on every reload, so clients keep their URLs.
    const shown = relative(process.cwd(), fixtureFile(fixture)) || fixtureFile(fixture);
    const chains = options.chains.map(({ chainId }) => ({ chainId, rpcPort: portOf(sim.rpcUrls.get(chainId)) }));
    const fixed = { ...options, port: portOf(sim.url), chains };
    const reloaded = { ...choice, publicUrl: publicUrl ?? sim.url, chainsGiven: true };
    stopWatching = reloadOnChange({
      file: fixtureFile(fixture),
      shown,
      async trial() {
        const apart = chooseWorld(reloaded, { ...fixed, port: 0, serveRpc: false });
        const trial = await startSimulator(apart.world, apart.options);
        await trial.live.finally(() => trial.close());
      },
      async swap() {
        await sim.close();
        const next = chooseWorld(reloaded, fixed);
        sim = await startSimulator(next.world, next.options);
        await sim.live;
      },
    });
    console.log(`--watch: watching ${shown}; saving it reloads the world on the same ports`);
  }
  const stop = async (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    stopWatching();
    // The time is the moment nothing new is accepted (close() stops the drain before it awaits anything).
    console.log(
      `\n${signal} at ${new Date().toISOString()}: stopping (requests in flight have ` +
        `${options.shutdownTimeoutMs / 1000} s to finish)`,
    );
    await sim.close();
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop(signal));
  return undefined;
}

/** The port a URL the simulator printed names (0 if there is none: no JSON-RPC). */
function portOf(url: string | undefined): number {
  return url ? Number(new URL(url).port) : 0;
}

/** Tells why the simulator did not start (a given key never shows, whatever the error quotes). */
function failure(error: Error & { code?: string; port?: number }, usage: string, keys: GivenKeys | undefined): number {
  const print = (text: string) => console.error(redactKeys(text, keys));
  // A refusal of the catalog: its line (and the usage text, for a flag) and its exit code (2 for what the command was
  // given, a --state directory another simulator holds included).
  if (error instanceof StartError) {
    print(error.descriptor.usage ? `${error.message}\n\n${usage}` : error.message);
    return error.descriptor.exitCode;
  }
  if (error.name === "TypeError" && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    print(`${error.message}\n\n${usage}`);
    return 2;
  }
  print(
    error.code === "EADDRINUSE"
      ? `Port ${error.port} is already in use: stop what uses it, or pick another with --port / --rpc-port ` +
          "(--no-rpc serves no JSON-RPC)."
      : String(error.stack ?? error),
  );
  return 1;
}

await runAsScript(import.meta.url, simulate);
