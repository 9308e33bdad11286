import type { Static, TLiteral, TObject, TProperties, TString } from "@sinclair/typebox";
import type { Address, Hex } from "viem";
import type { WriteOptions } from "../chain/sim-chain.ts";
import type { ScenarioItem } from "../schemas/scenario.ts";
import type { Ledger } from "../arrange/rules.ts";
import type { ChainReplay } from "../scenario/chain-replay.ts";

/** An entry of the timeline as an action's fields make it, every default filled in. */
export type EntryOf<Name extends string, Fields extends TProperties> = Static<
  TObject<{ at: TString; action: TLiteral<Name> } & Fields>
>;

/**
 * A scenario timeline action, whole: its fields, the checks of what it names, the contract's rules a fragment's entry
 * is checked against before anything is sent, and the transaction(s) it becomes. `timeline/actions.ts` lists them; the
 * scenario format's schema, its checks, the fragment's rule checks and the replay are derived from that list.
 */
export interface TimelineAction<Name extends string = string, Fields extends TProperties = TProperties> {
  readonly name: Name;
  /** Its fields besides `at` and `action`, in the order the scenario's JSON Schema lists them. */
  readonly fields: Fields;
  /** The fields naming accounts (none where left out): each is checked to be one before `check` runs. */
  readonly accounts?: readonly (keyof Fields & string)[];
  /**
   * Checks what the entry names as the timeline stands at its time (problems named by JSON path), and keeps what later
   * entries need to know.
   */
  check(state: TimelineState, step: ActionStep<EntryOf<Name, Fields>>): void;
  /**
   * Checks a fragment's entry against the contract's rules, as the world and the entries before it leave things. The
   * contract stays the judge: what this cannot foresee reverts, and the fragment is rolled back. Left out: the checks
   * ask all its rules.
   */
  rule?(ledger: Ledger, entry: EntryOf<Name, Fields>, path: string): Promise<void>;
  /** Sends the entry at its time; answers the hash of its own transaction (not of an approval before it). */
  send(replay: ChainReplay, entry: EntryOf<Name, Fields>, at: WriteOptions): Promise<Hex>;
  /**
   * Sends what the entry sends before its own transaction where the chain lacks it (an approval, a buyer's coins): a
   * replay calls it first where blocks are free below a block the entry shares with others, so that block holds only
   * the entries' own transactions (`send` then finds it done). Left out: the entry sends nothing before its own.
   */
  setUp?(replay: ChainReplay, entry: EntryOf<Name, Fields>, at: WriteOptions): Promise<void>;
}

/** A timeline action, its entries typed by its fields. */
export function timelineAction<Name extends string, Fields extends TProperties>(
  action: TimelineAction<Name, Fields>,
): TimelineAction<Name, Fields> {
  return action;
}

/** One timeline entry in replay order, `at` seconds from now; a check may settle the chain it runs on. */
export interface ActionStep<Entry = { at: string; action: string }> {
  kind: "action";
  at: number;
  chainId: number;
  path: string;
  action: Entry;
}

/** What the checks need of an item: its collection, and how many tokens it has. */
export type KnownItem = Pick<ScenarioItem, "collection" | "isStackable" | "initialSupply">;

/** A listing as the timeline leaves it so far. */
export interface ListingState {
  /** Where it was opened: an entry's path, or "the world". */
  path: string;
  chainId: number;
  remaining: number;
  currency: "native" | "stablecoin";
  closedBy?: string;
  /** Per item, in whole currency units as the scenario writes it ("0.25"). */
  price: string;
  /** The item in escrow (which of its tokens) and its seller, by handle; unset where the world does not name them. */
  item?: string;
  copy?: number;
  seller?: string;
}

/** What the checks know while they walk the timeline in time order. */
export interface TimelineState {
  problems: string[];
  accounts: ReadonlySet<string>;
  items: ReadonlyMap<string, KnownItem>;
  collections: ReadonlyMap<string, { chainId: number }>;
  /** Items some addItem adds, anywhere in the timeline. */
  addedAnywhere: ReadonlySet<string>;
  /** Collections created so far. */
  created: Set<string>;
  /** Items added so far, with the path of their addItem. */
  added: Map<string, string>;
  listings: Map<string, ListingState>;
}

/** A listing whose item and seller are known by handle. */
export type KnownListing = ListingState & Required<Pick<ListingState, "item" | "copy" | "seller">>;

/** A listing the replay opened or found, as its later entries send to it. */
export interface OpenListing {
  id: bigint;
  seller: Address;
  price: bigint;
  currency: Address;
  decimals: number;
}
