import { Type, type Static } from "@sinclair/typebox";
import { Address, AddressInput, ChainId, Closed, Named, SafeInteger, StringEnum, TxHash } from "./common.ts";

// The control API (`/_sim/…`): steering the simulator itself. Not part of the service's
// interface; served beside it for development and tests.

export const ChainClock = Closed({
  chainId: ChainId,
  blockNumber: Type.Integer(SafeInteger),
  timestamp: Type.Integer({ ...SafeInteger, description: "unix seconds of the head block" }),
  time: Type.String({ format: "date-time" }),
});
export const TimeResponse = Named("TimeResponse", { chains: Type.Array(ChainClock) });
export type TimeResponse = Static<typeof TimeResponse>;

export const AdvanceTimeBody = Closed({
  seconds: Type.Integer({
    minimum: 1,
    maximum: 100 * 365 * 86_400,
    description: "how far the next block is after the head",
  }),
  chainId: Type.Optional(ChainId),
});

export const SnapshotResponse = Named("SnapshotResponse", { id: Type.String() });
/** A path naming one thing of the control API by its id: a snapshot, a webhook, a fault rule. */
export const IdParams = Closed({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const Done = Named("Done", { ok: Type.Literal(true) });

export const CreateCollectionBody = Closed({
  chainId: ChainId,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  owner: Type.String({ minLength: 1, description: "the API key whose developer wallet owns the collection" }),
  minters: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    maxItems: 50,
    description: "API keys whose wallets get the minter role",
  }),
  description: Type.String({ default: "", maxLength: 5000 }),
  genre: Type.String({ default: "", maxLength: 200 }),
  image: Type.String({ default: "", maxLength: 2000 }),
  website: Type.String({ default: "", maxLength: 2000 }),
  isVerified: Type.Boolean({ default: true }),
});
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;
export const CreatedCollection = Named("CreatedCollection", {
  chainId: ChainId,
  address: Address,
  txHash: TxHash,
  slug: Type.String(),
});

export const MinterBody = Closed({ apiKey: Type.String({ minLength: 1 }), chainId: Type.Optional(ChainId) });
export const MinterParams = Closed({ address: AddressInput, apiKey: Type.String({ minLength: 1 }) });
export const MinterQuery = Closed({ chainId: Type.Optional(ChainId) });
export const MinterResponse = Named("MinterResponse", {
  collectionAddress: Address,
  chainId: ChainId,
  wallet: Address,
  isMinter: Type.Boolean(),
  txHash: TxHash,
});

export const CreateApiKeyBody = Closed({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9._-]+$" }),
});
export const ApiKeyResponse = Named("ApiKeyResponse", { apiKey: Type.String(), name: Type.String(), wallet: Address });

export const RequestLogQuery = Closed({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: "only requests to these paths: `*` matches one segment, `**` any rest (`/api/v2/**`)",
    }),
  ),
  status: Type.Optional(
    Type.String({
      pattern: "^[1-5]([0-9]{2}|xx)$",
      description: "only requests answered with this status (`404`), or this class (`4xx`); 0 is a dropped connection",
    }),
  ),
  method: Type.Optional(StringEnum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])),
});
export type RequestLogQuery = Static<typeof RequestLogQuery>;
export const LoggedRequest = Closed({
  id: Type.Integer({ ...SafeInteger, description: "counts up from 1 as requests are answered" }),
  at: Type.String({ format: "date-time" }),
  method: Type.String(),
  path: Type.String(),
  query: Type.String({ description: "the query string (without `?`), API keys and tokens masked" }),
  status: Type.Integer({ description: "0: the connection was dropped (a fault rule) without an answer" }),
  durationMs: Type.Number(),
  apiKey: Type.Optional(Type.String({ description: "masked: its first 4 characters" })),
  violations: Type.Optional(
    Type.Array(Type.String(), {
      description: "`nft-sim proxy` only: how the upstream's answer breaks the interface (none: it is left out)",
    }),
  ),
});
export type LoggedRequest = Static<typeof LoggedRequest>;
export const RequestLog = Named("RequestLog", { requests: Type.Array(LoggedRequest) });
export const RequestParams = Closed({ id: Type.Integer({ ...SafeInteger, minimum: 1 }) });

const LoggedBody = Closed({
  contentType: Type.String({ description: "empty when there was no body" }),
  text: Type.String({
    description: "the body as text (an image or other binary body as a note of its size), API keys and tokens masked",
  }),
  length: Type.Integer({ ...SafeInteger, description: "the whole text's length, in characters" }),
  truncated: Type.Boolean({ description: "the text is cut at the log's bound" }),
});
export type LoggedBody = Static<typeof LoggedBody>;
export const LoggedRequestDetail = Named("LoggedRequestDetail", {
  ...LoggedRequest.properties,
  request: Type.Union([LoggedBody, Type.Null()], {
    description: "null: the request had no body, or it was not read",
  }),
  response: Type.Union([LoggedBody, Type.Null()], {
    description: "null: no answer was sent (a dropped connection), or it is no longer kept",
  }),
  bodiesKept: Type.Boolean({ description: "bodies are kept for the newest requests only; false for an older one" }),
});
export type LoggedRequestDetail = Static<typeof LoggedRequestDetail>;
