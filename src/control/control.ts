import { applyFragment } from "../arrange/apply.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import type { ApiAccount } from "../core/config.ts";
import { apiError, ERRORS } from "../core/errors.ts";
import type { JournalEntry } from "../journal/entries.ts";
import { JournalError, type Journal } from "../journal/journal.ts";
import type { TimeResponse } from "../schemas/control.ts";
import type { ArrangeResponse, WorldResponse } from "../schemas/world.ts";
import { worldView } from "../views/world.ts";
import { advanceTime, chainClocks, mineAtTimes } from "./clock.ts";
import { Faults } from "./faults.ts";
import { RequestLog } from "./request-log.ts";
import { Snapshots } from "./snapshots.ts";
import { createApiKey, type WorldParts } from "./world-editing.ts";

/**
 * Steering the simulator: time, snapshots, API keys (the actions that are more than one
 * transaction, recorded in the journal as themselves), fault rules and the request log.
 * Chain writes record themselves once a journal is attached.
 */
export class Control {
  readonly faults = new Faults();
  readonly requests: RequestLog;
  readonly parts: WorldParts;
  readonly #snapshots: Snapshots;
  #journal: Journal | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(parts: WorldParts) {
    this.parts = parts;
    this.requests = new RequestLog(() => parts.accounts.list().map(({ apiKey }) => apiKey));
    this.#snapshots = new Snapshots(parts);
  }

  get chains(): ChainRegistry {
    return this.parts.chains;
  }

  /** The world is in: remember it for `reset`. */
  loaded(): Promise<void> {
    return this.#snapshots.markLoaded();
  }

  /** Records every acknowledged change from now on. */
  attach(journal: Journal): void {
    this.#journal = journal;
    for (const chain of this.chains.all()) chain.recordTo(journal);
  }

  time(): Promise<TimeResponse> {
    return chainClocks(this.chains);
  }

  advanceTime(seconds: number, chainId?: number): Promise<TimeResponse> {
    if (chainId !== undefined && !this.chains.get(chainId))
      throw apiError(ERRORS.NOT_FOUND, { what: `Chain ${chainId}` });
    const chainIds = chainId === undefined ? this.chains.ids() : [chainId];
    return this.#exclusive(async () => {
      const at = await advanceTime(this.chains, chainIds, seconds);
      this.#record({ t: "time", chainIds, at });
      return chainClocks(this.chains);
    });
  }

  snapshot(): Promise<string> {
    return this.#exclusive(async () => {
      const id = await this.#snapshots.take();
      this.#record({ t: "snapshot", id });
      return id;
    });
  }

  revert(id: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.#snapshots.revert(id);
      this.#record({ t: "revert", id });
    });
  }

  /** Back to the world as loaded; the journal is cleared with it. */
  reset(): Promise<void> {
    return this.#exclusive(async () => {
      await this.#snapshots.reset();
      this.#journal?.clear();
    });
  }

  createApiKey(name: string): Promise<ApiAccount> {
    return this.#exclusive(async () => {
      const account = await createApiKey(this.parts, name);
      this.#record({ t: "apiKey", apiKey: account.apiKey, name });
      return account;
    });
  }

  /**
   * The world by handle (GET /_sim/world): accounts with their API keys, each chain's contracts, the named
   * collections, items and listings, as they are now.
   */
  world(): WorldResponse {
    const { chains, accounts, handles } = this.parts;
    return worldView(chains.all(), accounts.list(), handles);
  }

  /**
   * Applies a fragment of the scenario format to the world, all or nothing (src/arrange/); journaled as the fragment,
   * with its time.
   */
  arrange(fragment: unknown): Promise<ArrangeResponse> {
    return this.#exclusive(async () => {
      const { answer, placement } = await applyFragment(this.parts, fragment);
      this.#record({ t: "scenario", fragment, ...placement });
      return answer;
    });
  }

  /**
   * Replays what a journal recorded (before it is attached, so nothing is recorded twice); answers how many recorded
   * writes failed again.
   */
  async replay(entries: JournalEntry[]): Promise<number> {
    let failedAgain = 0;
    const { chains } = this.parts;
    for (const entry of entries) {
      switch (entry.t) {
        case "tx": {
          const chain = this.#chain(entry.chainId);
          if (entry.raw !== undefined) {
            await chain
              .request("eth_sendRawTransaction", [entry.raw], { record: false })
              .catch(() => (failedAgain += 1));
            break;
          }
          const call = { to: entry.to, data: entry.data, ...(entry.value ? { value: BigInt(entry.value) } : {}) };
          await chain
            .write(
              entry.from,
              call,
              {},
              { gas: BigInt(entry.gas), ...(entry.at !== undefined ? { at: entry.at } : {}) },
            )
            .catch(() => (failedAgain += 1));
          break;
        }
        case "rpc": {
          const chain = this.#chain(entry.chainId);
          if (entry.at !== undefined) await chain.request("evm_setNextBlockTimestamp", [entry.at], { record: false });
          await chain.request(entry.method, entry.params, { record: false }).catch(() => (failedAgain += 1));
          break;
        }
        case "apiKey":
          await createApiKey(this.parts, entry.name, entry.apiKey);
          break;
        case "snapshot":
          await this.#snapshots.take(entry.id);
          break;
        case "revert":
          if (!this.#snapshots.has(entry.id))
            throw new JournalError(
              `the journal reverts to snapshot '${entry.id}', which it never took (or dropped before): the journal ` +
                `does not belong to this world`,
            );
          await this.#snapshots.revert(entry.id);
          break;
        case "time":
          await mineAtTimes(chains, entry.chainIds, entry.at);
          break;
        case "scenario":
          await applyFragment(this.parts, entry.fragment, entry).catch((error: unknown) => {
            throw new JournalError(
              `the journal applies a fragment at ${entry.now} that no longer applies to this world (${String((error as Error).message ?? error)}): the journal does not belong to this world`,
            );
          });
          break;
        case "world":
          break;
      }
    }
    await chains.sync();
    return failedAgain;
  }

  #chain(chainId: number) {
    const chain = this.chains.get(chainId);
    if (!chain)
      throw new Error(
        `the journal records chain ${chainId}, which this simulator does not run: start it with the chains it had`,
      );
    return chain;
  }

  #record(entry: JournalEntry): void {
    this.#journal?.append(entry);
  }

  /** Control actions run one at a time, and in the journal's order with every chain write. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#journal) return this.#journal.exclusive(work);
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
