import { Type, type Static } from "@sinclair/typebox";
import { Address, ChainId, Closed, Named, SafeInteger, TxHash } from "./common.ts";

// The world's handles as the control API answers them: GET /_sim/world (all of them) and
// POST /_sim/scenario (those a fragment added). Keyed by handle, so a test reads
// `world.accounts.bob.address` or `arranged.items["sky-saddle"].tokenIds[0]`.

const TokenId = Type.Integer({ ...SafeInteger, minimum: 1 });

export const WorldAccount = Closed({
  address: Address,
  apiKey: Type.Optional(Type.String({ description: "the account's API key, if it has one (its developer wallet)" })),
});

export const WorldCollection = Closed({ chainId: ChainId, address: Address, slug: Type.String() });

export const WorldItem = Closed({
  chainId: ChainId,
  collection: Address,
  tokenIds: Type.Array(TokenId, { minItems: 1, description: "one per copy of a non-stackable item" }),
});

export const WorldListing = Closed({
  chainId: ChainId,
  listingId: Type.Integer({ ...SafeInteger, minimum: 1, description: "the marketplace's id of the listing" }),
});

export const ChainContracts = Closed({ factory: Address, marketplace: Address, stablecoin: Address });

const byHandle = <T extends Parameters<typeof Type.Record>[1]>(value: T, description: string) =>
  Type.Record(Type.String(), value, { description });

export const WorldResponse = Named("WorldResponse", {
  chains: Type.Array(Closed({ chainId: ChainId, contracts: ChainContracts })),
  accounts: byHandle(WorldAccount, "every account the world names (scenario accounts, API keys made since)"),
  collections: byHandle(WorldCollection, "collections by handle (those the control API or the mint made have none)"),
  items: byHandle(WorldItem, "items by handle"),
  listings: byHandle(WorldListing, "listings by handle, open or not"),
});
export type WorldResponse = Static<typeof WorldResponse>;

export const ArrangedEntry = Closed({
  action: Type.String(),
  txHash: TxHash,
  timestamp: Type.Integer({ ...SafeInteger, description: "unix seconds of its block" }),
});

export const ArrangeResponse = Named("ArrangeResponse", {
  now: Type.Integer({ ...SafeInteger, description: 'unix seconds the fragment\'s "now" stood for' }),
  accounts: byHandle(WorldAccount, "the accounts it added"),
  collections: byHandle(Closed({ ...WorldCollection.properties, txHash: TxHash }), "the collections it created"),
  items: byHandle(Closed({ ...WorldItem.properties, txHash: TxHash }), "the items it added"),
  listings: byHandle(WorldListing, "the listings it opened"),
  timeline: Type.Array(ArrangedEntry, {
    description: "each timeline entry in the fragment's order: the transaction that is the action itself",
  }),
});
export type ArrangeResponse = Static<typeof ArrangeResponse>;
