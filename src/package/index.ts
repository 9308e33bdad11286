// The package's main export: start a simulator from a test or a script.
//
//   import { startSimulator } from "nft-service-simulator";
//   const sim = await startSimulator();           // the default world, on a free port
//   await fetch(`${sim.url}/api/v2/collection`);
//   await sim.close();
//
// A thin wrapper over the simulator `nft-sim simulate` runs: the same world choice
// (chooseWorld), the same start (src/simulator.ts), other defaults (free ports, no JSON-RPC).
import { DEFAULT_OPTIONS, type ApiAccount } from "../core/config.ts";
import { nodeTooOld } from "../core/node-version.ts";
import { chooseWorld } from "../scenario/worlds.ts";
import { defaultCacheDir, SHIPPED_WORLDS_DIR } from "../world-cache/world-cache.ts";
import { startSimulator as startServer } from "../simulator/simulator.ts";
import { controlClient, type ControlAnswer, type ControlClient } from "./control-client.ts";

export type { ApiAccount } from "../core/config.ts";
export {
  controlClient,
  type ControlAnswer,
  type ControlClient,
  type ControlClientOptions,
  type ControlRequest,
} from "./control-client.ts";
export { ControlError, EventTimeoutError, RequestVerificationError } from "./errors.ts";
export type { EventsFilter, EventsOptions, EventStream, SimEvent } from "./events-client.ts";
export type { EventMatch, EventWait, SimEventOf, WaitOptions } from "./wait-for-event.ts";
export type { RequestExpectation } from "./verify-requests.ts";
export type { ArrangeAnswer, Fragment, FragmentEntry } from "./arrange-types.ts";
export type { Collection, CollectionSummary } from "../schemas/collection.ts";
export type { ErrorBody } from "../schemas/error.ts";
export type { EventKind } from "../schemas/events.ts";
export type { ItemEvent } from "../schemas/item-event.ts";
export type { MintRequest as MintBody, MintResponse } from "../schemas/item.ts";
export type { WorldResponse as World } from "../schemas/world.ts";
export type { LoggedRequest, LoggedRequestDetail, TimeResponse } from "../schemas/control.ts";
export type { FaultBody as FaultRule, Fault } from "../schemas/fault-rule.ts";

export interface StartOptions {
  /** API port; default 0, a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** A scenario file, or "demo" / "contract-suite" (the worlds the package ships); default the default world. */
  fixture?: string;
  /** Chain ids to run; default the scenario's own chains (56 and 137 for the default world). */
  chains?: number[];
  /** Serve each chain as JSON-RPC on a free loopback port; default false. */
  rpc?: boolean;
  /** The world's "now" is the wall clock instead of the scenario's fixed time; default false. */
  wallClock?: boolean;
  /** Base URL written into collection `uri`s; default the simulator's own URL. */
  publicUrl?: string;
  /**
   * The world cache (a folder, or false for none; default node_modules/.cache/nft-service-simulator):
   * a world started before answers reads at once while its chains replay it. Only a world whose
   * uris name no port picked at random (a `port` or a `publicUrl` given) is cached.
   */
  cache?: string | false;
}

/** A simulator started in this process; `events`, `waitForEvent`, `verify` and `arrange` are its control client's. */
export interface RunningSimulator extends Pick<ControlClient, "events" | "waitForEvent" | "verify" | "arrange"> {
  /** Base URL of the API, e.g. http://127.0.0.1:41234 (the endpoints are under /api/v2). */
  url: string;
  /** The world's API keys with their developer wallets (the keys are public, derived from fixed labels). */
  accounts: ApiAccount[];
  /** Each chain's JSON-RPC URL by chain id; empty unless started with `rpc: true`. */
  rpcUrls: Record<number, string>;
  /**
   * The control API (`/_sim`): every operation of it, typed (time, snapshots, reset, the world, fragments, API keys,
   * collections, faults, the request log, webhooks, events).
   */
  control: ControlClient;
  /**
   * The world by handle, as it is now: `sim.world.accounts.bob.address`, `sim.world.items["sky-saddle"].tokenIds`,
   * each chain's contracts (what GET /_sim/world answers).
   */
  readonly world: ControlAnswer<"getWorld">;
  /** Stops the API and the chains and frees every port; safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the chains, deploys the contracts, replays the world and serves the API; resolves once the
 * API answers with the whole world in (from the world cache, before the chains hold it: a mint or a
 * control call made meanwhile waits for them). Several can run in one process, each on its own ports.
 */
export async function startSimulator(options: StartOptions = {}): Promise<RunningSimulator> {
  const tooOld = nodeTooOld();
  if (tooOld) throw new Error(tooOld);
  const { fixture, wallClock = false, publicUrl, chains, rpc = false, cache } = options;
  const chainIds = chains ?? DEFAULT_OPTIONS.chains.map(({ chainId }) => chainId);
  const base = {
    ...DEFAULT_OPTIONS,
    ...(cache === false || wallClock
      ? {}
      : cache === undefined
        ? { cacheDir: defaultCacheDir(), shippedWorldsDir: SHIPPED_WORLDS_DIR }
        : { cacheDir: cache }),
    host: options.host ?? DEFAULT_OPTIONS.host,
    port: options.port ?? 0,
    serveRpc: rpc,
    chains: chainIds.map((chainId) => ({ chainId, rpcPort: 0 })),
  };
  const chosen = chooseWorld({ fixture, wallClock, publicUrl, chainsGiven: chains !== undefined }, base);
  const sim = await startServer(chosen.world, chosen.options);
  const control = controlClient(sim.url);
  const { events, waitForEvent, verify, arrange } = control;
  return {
    url: sim.url,
    accounts: sim.accounts.list(),
    rpcUrls: Object.fromEntries(sim.rpcUrls),
    control,
    events,
    waitForEvent,
    verify,
    arrange,
    get world() {
      return sim.control.world();
    },
    close: sim.close,
    [Symbol.asyncDispose]: sim.close,
  };
}
