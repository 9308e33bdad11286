import { Type, type Static } from "@sinclair/typebox";
import { Address, AddressInput, ChainId, SafeInteger, StringEnum, TxHash } from "./common.ts";

// The control API (`/_sim/…`): steering the simulator itself. Not part of the service's
// interface; served beside it for development and tests.

export const ChainClock = Type.Object(
  {
    chainId: ChainId,
    blockNumber: Type.Integer(SafeInteger),
    timestamp: Type.Integer({ ...SafeInteger, description: "unix seconds of the head block" }),
    time: Type.String({ format: "date-time" }),
  },
  { additionalProperties: false },
);
export const TimeResponse = Type.Object(
  { chains: Type.Array(ChainClock) },
  { additionalProperties: false, $id: "TimeResponse" },
);
export type TimeResponse = Static<typeof TimeResponse>;

export const AdvanceTimeBody = Type.Object(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: 100 * 365 * 86_400,
      description: "how far the next block is after the head",
    }),
    chainId: Type.Optional(ChainId),
  },
  { additionalProperties: false },
);

export const SnapshotResponse = Type.Object(
  { id: Type.String() },
  { additionalProperties: false, $id: "SnapshotResponse" },
);
export const SnapshotParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
export const Done = Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false, $id: "Done" });

export const CreateCollectionBody = Type.Object(
  {
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
  },
  { additionalProperties: false },
);
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;
export const CreatedCollection = Type.Object(
  { chainId: ChainId, address: Address, txHash: TxHash, slug: Type.String() },
  { additionalProperties: false, $id: "CreatedCollection" },
);

export const CollectionAddressParams = Type.Object({ address: AddressInput }, { additionalProperties: false });
export const MinterBody = Type.Object(
  { apiKey: Type.String({ minLength: 1 }), chainId: Type.Optional(ChainId) },
  { additionalProperties: false },
);
export const MinterParams = Type.Object(
  { address: AddressInput, apiKey: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export const MinterQuery = Type.Object({ chainId: Type.Optional(ChainId) }, { additionalProperties: false });
export const MinterResponse = Type.Object(
  { collectionAddress: Address, chainId: ChainId, wallet: Address, isMinter: Type.Boolean(), txHash: TxHash },
  { additionalProperties: false, $id: "MinterResponse" },
);

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9._-]+$" }) },
  { additionalProperties: false },
);
export const ApiKeyResponse = Type.Object(
  { apiKey: Type.String(), name: Type.String(), wallet: Address },
  { additionalProperties: false, $id: "ApiKeyResponse" },
);

export const RequestLogQuery = Type.Object(
  {
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
        description:
          "only requests answered with this status (`404`), or this class (`4xx`); 0 is a dropped connection",
      }),
    ),
    method: Type.Optional(StringEnum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])),
  },
  { additionalProperties: false },
);
export type RequestLogQuery = Static<typeof RequestLogQuery>;
export const LoggedRequest = Type.Object(
  {
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
  },
  { additionalProperties: false },
);
export type LoggedRequest = Static<typeof LoggedRequest>;
export const RequestLog = Type.Object(
  { requests: Type.Array(LoggedRequest) },
  { additionalProperties: false, $id: "RequestLog" },
);
export const RequestParams = Type.Object(
  { id: Type.Integer({ ...SafeInteger, minimum: 1 }) },
  { additionalProperties: false },
);

const LoggedBody = Type.Object(
  {
    contentType: Type.String({ description: "empty when there was no body" }),
    text: Type.String({
      description: "the body as text (an image or other binary body as a note of its size), API keys and tokens masked",
    }),
    length: Type.Integer({ ...SafeInteger, description: "the whole text's length, in characters" }),
    truncated: Type.Boolean({ description: "the text is cut at the log's bound" }),
  },
  { additionalProperties: false },
);
export type LoggedBody = Static<typeof LoggedBody>;
export const LoggedRequestDetail = Type.Object(
  {
    ...LoggedRequest.properties,
    request: Type.Union([LoggedBody, Type.Null()], {
      description: "null: the request had no body, or it was not read",
    }),
    response: Type.Union([LoggedBody, Type.Null()], {
      description: "null: no answer was sent (a dropped connection), or it is no longer kept",
    }),
    bodiesKept: Type.Boolean({ description: "bodies are kept for the newest requests only; false for an older one" }),
  },
  { additionalProperties: false, $id: "LoggedRequestDetail" },
);
export type LoggedRequestDetail = Static<typeof LoggedRequestDetail>;
