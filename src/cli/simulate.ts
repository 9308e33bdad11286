import { isLoopbackHost } from "../http/origins.ts";
import { JournalError } from "../journal/journal.ts";
import { ReplayError } from "../scenario/replay.ts";
import { ScenarioError } from "../scenario/load.ts";
import { chooseWorld, WorldChoiceError } from "../scenario/world.ts";
import { startSimulator } from "../simulator.ts";
import { banner } from "./banner.ts";
import { replayDisplay } from "./progress.ts";
import { readOptions, USAGE, UsageError } from "./options.ts";

async function main(): Promise<void> {
  const { help, fixture, wallClock, publicUrl, chainsGiven, ...flags } = readOptions(process.argv.slice(2), process.env);
  if (help) return void console.log(USAGE);
  const display = replayDisplay();
  const { world, options, summary, clock } = chooseWorld({ fixture, wallClock, publicUrl, chainsGiven }, flags, (progress) => display.update(progress));
  console.log(summary);
  const sim = await startSimulator(world, options).finally(() => display.stop());
  // performance.now() counts from the process start, module loading included.
  const readyInMs = performance.now();
  const controlOn = isLoopbackHost(options.host) || options.adminToken !== undefined;
  console.log(await banner(sim, readyInMs, clock, { controlOn, ...(options.stateDir ? { stateDir: options.stateDir } : {}) }));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    console.log(`\n${signal}: stopping (requests in flight have ${options.shutdownTimeoutMs / 1000} s to finish)`);
    await sim.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: Error & { code?: string; port?: number }) => {
  if (error instanceof UsageError || error instanceof WorldChoiceError || error.name === "TypeError" && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    console.error(`${error.message}\n\n${USAGE}`);
  } else if (error instanceof ScenarioError || error instanceof ReplayError || error instanceof JournalError) {
    console.error(error.message);
  } else if (error.code === "EADDRINUSE") {
    console.error(`Port ${error.port} is already in use: stop what uses it, or pick another with --port / --rpc-port.`);
  } else {
    console.error(error.stack ?? error);
  }
  process.exit(1);
});
