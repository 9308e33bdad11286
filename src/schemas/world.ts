import { Type, type Static } from "@sinclair/typebox";
import { Address, ChainId, SafeInteger, TxHash } from "./common.ts";

// The world's handles as the control API answers them: GET /_sim/world (all of them) and
// POST /_sim/scenario (those a fragment added). Keyed by handle, so a test reads
// `world.accounts.bob.address` or `arranged.items["sky-saddle"].tokenIds[0]`.

const TokenId = Type.Integer({ ...SafeInteger, minimum: 1 });

export const WorldAccount = Type.Object(
  {
    address: Address,
    apiKey: Type.Optional(Type.String({ description: "the account's API key, if it has one (its developer wallet)" })),
  },
  { additionalProperties: false },
);

export const WorldCollection = Type.Object(
  { chainId: ChainId, address: Address, slug: Type.String() },
  { additionalProperties: false },
);

export const WorldItem = Type.Object(
  {
    chainId: ChainId,
    collection: Address,
    tokenIds: Type.Array(TokenId, { minItems: 1, description: "one per copy of a non-stackable item" }),
  },
  { additionalProperties: false },
);

export const WorldListing = Type.Object(
  {
    chainId: ChainId,
    listingId: Type.Integer({ ...SafeInteger, minimum: 1, description: "the marketplace's id of the listing" }),
  },
  { additionalProperties: false },
);

export const ChainContracts = Type.Object(
  { factory: Address, marketplace: Address, stablecoin: Address },
  { additionalProperties: false },
);

const byHandle = <T extends Parameters<typeof Type.Record>[1]>(value: T, description: string) =>
  Type.Record(Type.String(), value, { description });

export const WorldResponse = Type.Object(
  {
    chains: Type.Array(Type.Object({ chainId: ChainId, contracts: ChainContracts }, { additionalProperties: false })),
    accounts: byHandle(WorldAccount, "every account the world names (scenario accounts, API keys made since)"),
    collections: byHandle(WorldCollection, "collections by handle (those the control API or the mint made have none)"),
    items: byHandle(WorldItem, "items by handle"),
    listings: byHandle(WorldListing, "listings by handle, open or not"),
  },
  { additionalProperties: false, $id: "WorldResponse" },
);
export type WorldResponse = Static<typeof WorldResponse>;

export const ArrangedEntry = Type.Object(
  {
    action: Type.String(),
    txHash: TxHash,
    timestamp: Type.Integer({ ...SafeInteger, description: "unix seconds of its block" }),
  },
  { additionalProperties: false },
);

export const ArrangeResponse = Type.Object(
  {
    now: Type.Integer({ ...SafeInteger, description: 'unix seconds the fragment\'s "now" stood for' }),
    accounts: byHandle(WorldAccount, "the accounts it added"),
    collections: byHandle(
      Type.Object({ ...WorldCollection.properties, txHash: TxHash }, { additionalProperties: false }),
      "the collections it created",
    ),
    items: byHandle(
      Type.Object({ ...WorldItem.properties, txHash: TxHash }, { additionalProperties: false }),
      "the items it added",
    ),
    listings: byHandle(WorldListing, "the listings it opened"),
    timeline: Type.Array(ArrangedEntry, {
      description: "each timeline entry in the fragment's order: the transaction that is the action itself",
    }),
  },
  { additionalProperties: false, $id: "ArrangeResponse" },
);
export type ArrangeResponse = Static<typeof ArrangeResponse>;
