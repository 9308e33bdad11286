import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Accounts } from "../core/accounts.ts";
import { loadAbis } from "../core/abi.ts";
import { ChainRegistry } from "../chain/registry.ts";
import { accessPolicy, isWildcardHost as isWildcard } from "../access/policy.ts";
import { serveRpc } from "../http/rpc-server.ts";
import { DEFAULT_OPTIONS, type SimulatorOptions } from "../core/config.ts";
import { Control } from "../control/control.ts";
import { PushedEvents } from "../events/events.ts";
import { createApp } from "../http/app.ts";
import { Checkpointer } from "../journal/checkpointer.ts";
import type { Disk } from "../journal/disk.ts";
import { Journal } from "../journal/journal.ts";
import { StateLock } from "../journal/lock.ts";
import { loadImage, openState } from "../journal/restore.ts";
import { liveState, type RestoredState } from "../journal/state.ts";
import { jsonHttpServer } from "../http/error-exit.ts";
import { Drain } from "../http/access.ts";
import {
  fromImage,
  replayFirst,
  type LoadInputs,
  type LoadSource,
  type Recorded,
  type WorldLoader,
} from "./load-world.ts";
import { cachedWorld } from "./world-image.ts";
import { WorldHandles } from "../core/handles.ts";
import type { SeedTarget, World } from "../scenario/world.ts";

export type { SeedTarget, World } from "../scenario/world.ts";

export interface Simulator extends SeedTarget {
  accounts: Accounts;
  /** The world's names for its accounts, collections, items and listings (GET /_sim/world). */
  handles: WorldHandles;
  /** Each chain's JSON-RPC URL, when the chains are served. */
  rpcUrls: Map<number, string>;
  /** Time, snapshots, API keys, faults, the request log (what `/_sim` serves). */
  control: Control;
  /** Events pushed: the feed (`/_sim/events`) and the webhooks. */
  events: PushedEvents;
  /** With `--state`: what the journal held at start (once the chains hold it). */
  restored?: RestoredState;
  /**
   * Resolves once the chains hold the world and take writes. A start from a cached world
   * answers reads before that; writes, the control API and JSON-RPC calls wait for it.
   */
  live: Promise<void>;
  /**
   * How the world was loaded: replayed, or answered from the cache while it replayed (and whether the chains agreed).
   */
  load: LoadSource;
  close(): Promise<void>;
}

/** A start's options, and the disk `--state` writes through (a test's that loses what was not synced; the real one by default). */
export type StartOptions = Partial<SimulatorOptions> & { disk?: Disk };

/**
 * Serves the API (503 until the world is in), starts the chains and loads the world onto
 * them, and answers once reads are complete: with a cached world (`cacheDir`) that is
 * before the chains have replayed it (`live` tells when they have).
 */
export async function startSimulator(world: World, overrides: StartOptions = {}): Promise<Simulator> {
  const options = { ...DEFAULT_OPTIONS, ...overrides };
  const chains = new ChainRegistry();
  const servers: Server[] = [];
  const rpcUrls = new Map<number, string>();
  const drain = new Drain();
  const events = new PushedEvents({ ...options.events, webhookHosts: options.webhookHosts });
  let journal: Journal | undefined;
  let checkpointer: Checkpointer | undefined;
  const kept: { restored?: RestoredState } = {};
  // One simulator per state directory, for the life of the process: a second one is refused before it does anything.
  const lock = options.stateDir === undefined ? undefined : StateLock.take(options.stateDir, options.disk);
  // Resolves once the chains hold the world (with the answers, unless they came from the cache first).
  const chainsHoldWorld = { resolve: (): void => undefined, reject: (_error: unknown): void => undefined };
  const live = new Promise<void>((resolve, reject) => Object.assign(chainsHoldWorld, { resolve, reject }));
  live.catch(() => undefined);
  let loading: WorldLoader | undefined;
  let closing: Promise<void> | undefined;
  /**
   * Stop listening, close idle kept-alive connections, refuse what arrives on busy ones, let requests in flight be
   * answered in full (up to the timeout), then cut every socket.
   */
  const close = () =>
    (closing ??= (async () => {
      drain.stop();
      events.close();
      const closed = Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      servers.forEach((server) => server.closeIdleConnections());
      await drain.settled(options.shutdownTimeoutMs);
      servers.forEach((server) => server.closeAllConnections());
      await closed;
      loading?.stopFollowing();
      await loading?.abort();
      await live.catch(() => undefined);
      await checkpointer?.close();
      await loading?.cached();
      await chains.close();
      journal?.close();
      lock?.release();
    })());

  try {
    const access = accessPolicy(options);
    let ready = false;
    const accounts = new Accounts(world.accounts);
    const handles =
      world.handles ??
      new WorldHandles(
        world.accounts.map(({ name, wallet, walletKey }) => [name, { address: wallet, key: walletKey }]),
      );
    let url = "";
    const control = new Control({
      chains,
      accounts,
      handles,
      baseUrl: () => options.publicUrl ?? url,
      writeTimeoutMs: options.mintTimeoutMs,
    });
    const app = createApp({
      chains,
      accounts,
      drain,
      access,
      control,
      events,
      isReady: () => ready,
      live: () => live,
      bodyLimit: options.bodyLimit,
      mintTimeoutMs: options.mintTimeoutMs,
    });
    const api = jsonHttpServer(app.callback(), (error) => JSON.stringify(error.body));
    api.listen(options.port, options.host);
    servers.push(api);
    await new Promise<void>((resolve, reject) => api.once("listening", resolve).once("error", reject));
    url = urlOf(options.host, api);
    events.targets.servesOn((api.address() as AddressInfo).port);
    // Every port is taken before the world loads, so a port in use is told at once, not after the replay.
    if (options.serveRpc) {
      for (const { chainId, rpcPort } of options.chains) {
        // A call waits until the chain holds the world (at once, unless the world came from the cache).
        const request = async (method: string, params: unknown[]) => {
          await live;
          return chains.get(chainId)!.request(method, params);
        };
        const server = await serveRpc({ request }, options.rpcHost, rpcPort, access);
        servers.push(server);
        rpcUrls.set(chainId, urlOf(options.rpcHost, server));
      }
    }
    const inputs: LoadInputs = { world, options, abis: loadAbis(), url, chains, control };
    const worldIdOn = (chainIds: number[]) =>
      `${world.id?.(url) ?? "a world without an id"}; chains ${chainIds.join(",")}`;
    const warn = (line: string) => console.warn(line);
    // A journal of in-process chains is opened first: its checkpoint (or the cached world), with the lines after it
    // folded on, is the image answered from at once, while the chains replay it; a journal on a node's chain is opened
    // once the world is in (its chain ids are known only then).
    const state =
      options.stateDir !== undefined && options.nodeUrls.length === 0
        ? openState(
            options.stateDir,
            worldIdOn(options.chains.map(({ chainId }) => chainId)),
            () => cachedWorld(inputs),
            warn,
            options.disk,
          )
        : undefined;
    journal = state?.journal;
    if (journal) control.keptIn(journal);
    if (state?.replayFirst)
      warn(`${options.stateDir}: the journal is replayed before anything is answered (${state.replayFirst})`);
    // Without --state, the world cache's image is read whole: the world's handles are read back from it before the
    // first answer, as when it is replayed.
    const cached = options.stateDir === undefined ? cachedWorld(inputs) : undefined;
    const image = cached ? loadImage(cached, "whole") : state?.image;
    // From now on every change is recorded, and the journal folded into checkpoints behind it.
    const recorded: Recorded = (recording, restored) => {
      control.attach(recording, () => checkpointer?.status);
      kept.restored = restored;
      if (options.nodeUrls.length > 0) return;
      const worldId = worldIdOn(chains.ids());
      const live = () => liveState(chains, accounts);
      const every = options.checkpointEveryBytes ? { everyBytes: options.checkpointEveryBytes } : {};
      const from = image?.from === "checkpoint" ? image.of : undefined;
      checkpointer = new Checkpointer({ journal: recording, world: worldId, live, told: warn, ...every }, from);
    };
    const journalOf = (chainIds: number[]) => {
      if (options.stateDir === undefined || journal) return journal;
      const opened = Journal.open(options.stateDir, worldIdOn(chainIds), warn, options.disk);
      if (opened.warning) warn(opened.warning);
      return (journal = opened.journal);
    };
    // Start-up (b) when there is an image to answer from, else (a): load-world.ts.
    const loaded = image
      ? await fromImage(inputs, image, journal, recorded)
      : await replayFirst(inputs, journalOf, recorded);
    loading = loaded;
    events.feed.follow(chains.all());
    ready = true;
    // With the answers from the cache, the chains start once the first of them is out (or after a
    // moment): loading Hardhat holds the event loop for a while, and that first reader should not wait.
    const chainsMayStart = loaded.load.source !== "replay" ? firstAnswer(api, 250) : Promise.resolve();
    void chainsMayStart.then(() => loaded.finish()).then(chainsHoldWorld.resolve, chainsHoldWorld.reject);
    return {
      url,
      chains,
      accounts,
      handles,
      rpcUrls,
      control,
      events,
      live,
      load: loaded.load,
      get restored() {
        return kept.restored;
      },
      close,
    };
  } catch (error) {
    chainsHoldWorld.resolve();
    await close();
    throw error;
  }
}

/** Resolves once the server has answered its first request, or after `atMostMs`. */
function firstAnswer(server: Server, atMostMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, atMostMs);
    server.once("request", (_request, response) => response.once("close", () => (clearTimeout(timer), resolve())));
  });
}

function urlOf(host: string, server: Server): string {
  return serverUrl(host, (server.address() as AddressInfo).port);
}

/**
 * Where this machine reaches a server: a wildcard address is reached as localhost (what the world's `uri`s say too).
 */
export function serverUrl(host: string, port: number): string {
  return `http://${isWildcard(host) ? "localhost" : host}:${port}`;
}
