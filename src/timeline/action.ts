import type { Static, TLiteral, TObject, TProperties, TString } from "@sinclair/typebox";
import type { Address, Hex } from "viem";
import type { SimChain, WriteOptions } from "../chain/sim-chain.ts";

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
  rule?(ledger: RuleLedger, entry: EntryOf<Name, Fields>, path: string): Promise<void>;
  /** Sends the entry at its time; answers the hash of its own transaction (not of an approval before it). */
  send(replay: SendContext, entry: EntryOf<Name, Fields>, at: WriteOptions): Promise<Hex>;
  /**
   * Sends what the entry sends before its own transaction where the chain lacks it (an approval, a buyer's coins): a
   * replay calls it first where blocks are free below a block the entry shares with others, so that block holds only
   * the entries' own transactions (`send` then finds it done). Left out: the entry sends nothing before its own.
   */
  setUp?(replay: SendContext, entry: EntryOf<Name, Fields>, at: WriteOptions): Promise<void>;
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
export interface KnownItem {
  collection: string;
  isStackable?: boolean;
  initialSupply: number;
}

/** What the actions read of an item's definition. */
export interface ItemSpec extends KnownItem {
  id: string;
  maximumSupply?: number;
  royaltyFee?: number;
}

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

/**
 * What the rules read and keep while they walk a fragment (`arrange/rules.ts`): balances, supplies and coin as the
 * entries so far leave them, read from the world where the fragment has not said.
 */
export interface RuleLedger {
  /** Each broken rule, a line naming the entry's field. */
  readonly problems: string[];
  /** An item the fragment defines; undefined for the world's. */
  newItem(id: string): ItemSpec | undefined;
  /** `by` holds the minter role on the item's collection (or, where `creatorMay`, created the item). */
  needMinter(path: string, by: string, item: string, creatorMay?: boolean): Promise<void>;
  credit(item: string, copy: number, holder: string, amount: bigint): void;
  /** Takes tokens from `holder`; a problem if it holds fewer. */
  debit(path: string, item: string, copy: number, holder: string, amount: bigint): void;
  /** The item's supply and its maximum (a stackable item). */
  supplyOf(item: string): [supply: bigint, max: bigint];
  setSupply(item: string, supply: bigint): void;
  /** An open listing as the entries so far leave it; undefined where the world names not its item or seller. */
  listing(name: string): KnownListing | undefined;
  /** The buyer pays price × amount in the chain's coin, the seller is paid it; a problem if the buyer has less. */
  pay(path: string, buyer: string, listing: KnownListing, amount: bigint): Promise<void>;
}

/** A listing the replay opened or found, as its later entries send to it. */
export interface OpenListing {
  id: bigint;
  seller: Address;
  price: bigint;
  currency: Address;
  decimals: number;
}

/** What a sender needs of the chain it replays onto (`scenario/chain-replay.ts`). */
export interface SendContext {
  readonly chain: SimChain;
  readonly listings: Map<string, OpenListing>;
  listingCount: bigint;
  account(name: string): Address;
  item(id: string): ItemSpec;
  /** The collection and token id of an item (of its `copy`-th token if it is non-stackable). */
  token(item: string, copy?: number): { collection: Address; tokenId: bigint };
  collectionOf(item: ItemSpec): Address;
  /**
   * The collection of an item, known before it is minted (a listing's set-ups are counted before the block that mints
   * it is sent, where the replay behind a cached world knows every token already and a cold one none).
   */
  itemCollection(item: string): Address;
  /** The item's metadata as it goes on chain. */
  itemMetadata(item: ItemSpec): Hex;
  /** Records the token ids an addItem of `item` creates: the collection's next ones. */
  landItem(item: ItemSpec): Promise<void>;
  /** Records a listing the replay opened: its handle in the world, and what a later entry needs of it. */
  landListing(handle: string, listing: OpenListing): void;
  /** Lets the marketplace take the seller's tokens of the collection, once. */
  approveMarketplace(seller: Address, collection: Address, at: WriteOptions): Promise<void>;
  /** Gives a stablecoin buyer coins and the marketplace its allowance, where it lacks them. */
  fundStablecoin(buyer: Address, needed: bigint, at: WriteOptions): Promise<void>;
}
