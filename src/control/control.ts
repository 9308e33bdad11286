import { formatEther } from "viem";
import { applyFragment, type Placement } from "../arrange/apply.ts";
import { poolsGas } from "../chain/node/pools.ts";
import type { ChainRegistry } from "../chain/registry.ts";
import { loadAbis } from "../core/abi.ts";
import type { ApiAccount } from "../core/config.ts";
import { found } from "../core/errors.ts";
import { ChainJournal, replayChainEntry } from "../journal/chain-changes.ts";
import type { JournalEntry } from "../journal/entries.ts";
import { journalRefused, type Journal } from "../journal/journal.ts";
import type { TimeResponse } from "../schemas/control.ts";
import type { ArrangeResponse, WorldResponse } from "../schemas/world.ts";
import { worldView } from "../views/world.ts";
import type { StateResponse } from "../schemas/state.ts";
import { headOf, mineAt } from "../chain/actions/node-state.ts";
import { allOf } from "../chain/savepoint.ts";
import { Faults } from "./faults.ts";
import { RequestLog } from "./request-log.ts";
import { Snapshots } from "./snapshots.ts";
import { createApiKey, newApiKey, type WorldParts } from "./world-editing.ts";

/**
 * Steering the simulator: time, snapshots, API keys (the actions that are more than one
 * transaction, recorded in the journal as themselves), fault rules and the request log.
 * Chain writes record themselves once a journal is attached.
 */
export class Control {
  readonly faults = new Faults();
  readonly requests: RequestLog;
  readonly parts: WorldParts;
  #snapshots: Snapshots;
  #journal: Journal | undefined;
  #kept: Journal | undefined;
  #checkpoint: () => { offset: number; at: string } | undefined = () => undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(parts: WorldParts) {
    this.parts = parts;
    this.requests = new RequestLog(() => parts.accounts.list().map(({ apiKey }) => apiKey));
    this.#snapshots = new Snapshots(parts);
  }

  get chains(): ChainRegistry {
    return this.parts.chains;
  }

  /** Takes over the snapshots a replay took on chains this control now runs (a journal replayed beside the answers). */
  adoptSnapshots(replayer: Control): void {
    this.#snapshots = replayer.#snapshots.movedTo(this.parts);
  }

  /** The world is in: remember it for `reset`. */
  loaded(): Promise<void> {
    return this.#snapshots.markLoaded();
  }

  /** The journal `state()` tells of (before it records: while the chains replay it). */
  keptIn(journal: Journal): void {
    this.#kept = journal;
  }

  /** Records every acknowledged change from now on; `state()` learns the journal's checkpoint from `checkpoint`. */
  attach(journal: Journal, checkpoint = this.#checkpoint): void {
    this.#journal = this.#kept = journal;
    this.#checkpoint = checkpoint;
    const recorder = new ChainJournal(journal, loadAbis());
    for (const chain of this.chains.all()) chain.recordTo(recorder);
  }

  /** What --state keeps, and whether its journal takes writes now. */
  state(): StateResponse {
    const journal = this.#kept;
    if (!journal) return { kept: false };
    const { writable, since, reason } = journal.writability;
    const checkpoint = this.#checkpoint();
    return {
      kept: true,
      dir: journal.dir,
      ...(checkpoint ? { checkpoint: { ...checkpoint, behind: journal.bytes - checkpoint.offset } } : {}),
      journal: {
        file: journal.path,
        bytes: journal.bytes,
        format: journal.header.format ?? 1,
        writable,
        ...(since ? { since } : {}),
        ...(reason ? { reason } : {}),
      },
    };
  }

  /** How much each wallet that signs an API key's writes holds, on every node where the simulator signs (`--keys`). */
  async gas(): Promise<StateResponse["gas"]> {
    const keys = this.parts.accounts.list();
    const signers = keys.map(({ wallet }) => wallet);
    const found = await Promise.all(
      this.chains.all().map(async (chain) => {
        if (!chain.node?.writer.signs) return [];
        const pools = await poolsGas(chain.node, signers);
        return pools.map(({ wallet, wallets }, i) => ({
          chainId: chain.chainId,
          account: keys[i]!.name,
          wallet,
          wallets: wallets.map(({ address, balance, level }) => ({
            address,
            ...(balance === undefined ? {} : { balance: formatEther(balance) }),
            level,
          })),
        }));
      }),
    );
    const gas = found.flat();
    return gas.length > 0 ? gas : undefined;
  }

  /** Each chain's head block and its time, after indexing it. */
  async time(): Promise<TimeResponse> {
    const reads = await this.chains.read();
    return {
      chains: reads.map(({ chain: { chainId }, models: { head } }) => ({
        chainId,
        blockNumber: head.blockNumber,
        timestamp: head.timestamp,
        time: new Date(head.timestamp * 1000).toISOString(),
      })),
    };
  }

  advanceTime(seconds: number, chainId?: number): Promise<TimeResponse> {
    const chains = chainId === undefined ? this.chains.all() : [found(this.chains.get(chainId), `Chain ${chainId}`)];
    const chainIds = chains.map((chain) => chain.chainId);
    return this.#run(async (journal) => {
      const move = async (record: (entry: JournalEntry) => void) => {
        // A block `seconds` after each chain's head.
        const at: number[] = [];
        for (const chain of chains) {
          at.push(Number((await headOf(chain)).timestamp) + seconds);
          await mineAt(chain, at.at(-1)!);
        }
        const heads = await Promise.all(chains.map((chain) => headOf(chain)));
        record({
          t: "time",
          chainIds,
          at,
          heads: heads.map(({ number, hash, timestamp }) => [Number(number), hash, Number(timestamp)]),
        });
      };
      // Taken back on every chain it moved if its record cannot be made durable.
      await (journal
        ? journal.stepHeld(move, () => allOf(chains.map((chain) => () => chain.savepoint())))
        : move(() => {}));
      return this.time();
    });
  }

  snapshot(): Promise<string> {
    return this.#run(async (journal) => {
      const { id } = await this.#first(journal, () => ({ t: "snapshot", id: this.#snapshots.nextId() }));
      return this.#snapshots.take(id);
    });
  }

  revert(id: string): Promise<void> {
    return this.#run(async (journal) => {
      await this.#first(journal, () => (this.#snapshots.check(id), { t: "revert", id }));
      await this.#snapshots.revert(id);
    });
  }

  /** Back to the world as loaded; the journal is cleared first (a new generation of it). */
  reset(): Promise<void> {
    return this.#run(async (journal) => {
      this.#snapshots.checkReset();
      await (journal ? journal.clearHeld(() => this.#snapshots.reset()) : this.#snapshots.reset());
    });
  }

  createApiKey(name: string): Promise<ApiAccount> {
    return this.#run(async (journal) => {
      const { apiKey } = await this.#first(journal, () => ({
        t: "apiKey",
        apiKey: newApiKey(this.parts, name),
        name,
      }));
      return createApiKey(this.parts, name, apiKey);
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
    return this.#run(async (journal) => {
      journal?.ensureWritable();
      // Its line made durable before the fragment is let go: taken back (507) if it cannot be.
      const keep =
        journal &&
        ((placement: Placement) => journal.recordFirstHeld(() => ({ t: "scenario", fragment, ...placement })));
      return (await applyFragment(this.parts, fragment, undefined, keep)).answer;
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
        case "tx":
        case "block":
        case "rpc":
          failedAgain += await replayChainEntry(this.#chain(entry.chainId), entry);
          break;
        case "apiKey":
          await createApiKey(this.parts, entry.name, entry.apiKey);
          break;
        case "snapshot":
          await this.#snapshots.take(entry.id);
          break;
        case "revert":
          if (!this.#snapshots.has(entry.id))
            throw journalRefused(
              `the journal reverts to snapshot '${entry.id}', which it never took (or dropped before): the journal ` +
                `does not belong to this world`,
            );
          await this.#snapshots.revert(entry.id);
          break;
        case "time":
          for (const [i, chainId] of entry.chainIds.entries()) await mineAt(this.#chain(chainId), entry.at[i]!);
          break;
        case "scenario":
          // A fragment reads the world it lands on: the chains' indexes follow them again if a replay stopped them.
          for (const chain of chains.all()) chain.resumeIndexing();
          await applyFragment(this.parts, entry.fragment, entry).catch((error: unknown) => {
            throw journalRefused(
              `the journal applies a fragment at ${entry.now} that no longer applies to this world (${String((error as Error).message ?? error)}): the journal does not belong to this world`,
            );
          });
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

  /** `entry()` (which may refuse first) made durable, when a journal records, before the action it names runs. */
  #first<E extends JournalEntry>(journal: Journal | undefined, entry: () => E): Promise<E> {
    return journal ? journal.recordFirstHeld(entry) : Promise.resolve(entry());
  }

  /** Control actions run one at a time, and in the journal's order with every chain write. */
  #run<T>(work: (journal: Journal | undefined) => Promise<T>): Promise<T> {
    const journal = this.#journal;
    if (journal) return journal.exclusive(() => work(journal));
    const run = this.#queue.then(() => work(undefined));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
