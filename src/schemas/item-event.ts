import { Type, type Static } from "@sinclair/typebox";
import {
  Address,
  AddressInput,
  ChainId,
  Closed,
  ItemRef,
  Named,
  OptionalApiKey,
  Page,
  PerPage,
  SafeInteger,
  StringEnum,
  TxHash,
} from "./common.ts";

export const TRANSFER_EVENTS = ["TransferSingle", "TransferBatch"] as const;
export const MARKET_EVENTS = [
  "ItemListed",
  "ItemDelisted",
  "ItemPriceUpdated",
  "ItemAdded",
  "ItemRemoved",
  "Swapped",
] as const;

const transferFields = {
  id: Type.String({
    pattern: "^Transfer(Single|Batch)-[0-9]+-[0-9]+$",
    description: "<Event>-<blockNumber>-<logIndex>",
  }),
  amount: Type.String({ pattern: "^[0-9]+$" }),
  blockNumber: Type.Integer({ minimum: 0 }),
  chainId: ChainId,
  event: StringEnum(TRANSFER_EVENTS),
  from: Address,
  itemCollection: Address,
  itemRef: ItemRef,
  timestamp: Type.Integer({ minimum: 0, description: "Unix seconds" }),
  to: Address,
  tokenId: Type.Integer({ minimum: 0 }),
  transactionHash: TxHash,
};

/** A mint (from the zero address), burn (to it) or transfer. */
export const TransferEvent = Closed(transferFields);

/** A marketplace event; it carries the currency and the USD figures. */
export const MarketEvent = Closed({
  ...transferFields,
  id: Type.String({
    pattern: `^(${MARKET_EVENTS.join("|")})-[0-9]+-0x[0-9a-f]{64}-[0-9]+$`,
    description: "<Event>-<listingId>-<transactionHash>-<logIndex>",
  }),
  event: StringEnum(MARKET_EVENTS),
  to: Type.Union([Address, Type.Literal("")], { description: "the buyer on Swapped; empty on listing events" }),
  currency: Type.String({ pattern: "^0x[0-9a-f]{40}$", description: "the zero address is the chain's native coin" }),
  currencyPrice: Type.Number({ minimum: 0, description: "USD price of one unit of the currency" }),
  price: Type.Number({ minimum: 0, description: "price of one item in whole currency units" }),
  worth: Type.Number({
    minimum: 0,
    description: "USD value of a sale (price × amount × currencyPrice); 0 on other kinds",
  }),
});

export const ItemEvent = Type.Union([TransferEvent, MarketEvent], { $id: "ItemEvent" });
export type TransferEvent = Static<typeof TransferEvent>;
export type MarketEvent = Static<typeof MarketEvent>;
export type ItemEvent = Static<typeof ItemEvent>;

export const ItemEventsParams = Closed({ address: AddressInput, tokenId: Type.Integer(SafeInteger) });

export const ItemEventsQuery = Closed({
  perPage: PerPage,
  page: Page,
  chainId: Type.Optional(ChainId),
  apiKey: OptionalApiKey,
});

export const ItemEventsResponse = Named("ItemEventsResponse", {
  events: Type.Array(ItemEvent, { description: "newest first" }),
});
