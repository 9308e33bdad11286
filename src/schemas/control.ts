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

const FaultMatch = Type.Object(
  {
    method: Type.Optional(StringEnum(["GET", "POST", "HEAD"])),
    path: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        "a path from its leading `/`, `*` matching one segment and `**` any rest: `/api/v2/item/**`; never under " +
        "`/_sim/` (the control API is never faulted)",
    }),
    apiKey: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
/** Where in a JSON answer: dotted keys, a number an array's index, `*` every key or element (`collections.*.holders`). */
const AnswerPath = Type.String({ minLength: 1, maxLength: 500, pattern: "^[^.]+(\\.[^.]+)*$" });
const JSON_TYPES = ["string", "number", "boolean", "null", "array", "object"] as const;
const FaultBodyChange = Type.Object(
  {
    json: Type.Optional(
      Type.Unknown({ description: "answer this JSON instead, with `status` (default 200); the route is not called" }),
    ),
    text: Type.Optional(
      Type.String({
        maxLength: 1_000_000,
        description: "answer this text as it is (malformed JSON, an HTML error page), with `status` (default 200)",
      }),
    ),
    contentType: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "the content type of `text`; default text/plain" }),
    ),
    malformed: Type.Optional(
      Type.Boolean({ description: "the route's JSON answer, broken: a comma before its last closing bracket" }),
    ),
    truncate: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000_000, description: "the route's answer, cut after this many bytes" }),
    ),
    drop: Type.Optional(
      Type.Array(AnswerPath, { minItems: 1, maxItems: 100, description: "fields of the route's answer left out" }),
    ),
    rename: Type.Optional(
      Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 200 }), {
        description: "fields of the route's answer renamed: path → new name (`collection.holders`: `holderCount`)",
      }),
    ),
    retype: Type.Optional(
      Type.Record(Type.String(), StringEnum(JSON_TYPES), {
        description:
          'fields of the route\'s answer as another JSON type: path → type (`holders` 12 as `string` is "12")',
      }),
    ),
    add: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "fields added to the route's answer: path → value, the path's last key the new field",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "the body answered: one given whole (`json` or `text`), or the route's own answer changed (`malformed`, " +
      "`truncate`, and `drop`, `rename`, `retype`, `add` on a JSON answer, in that order); the request then goes " +
      "through (a mint is made) and only what the client reads changes",
  },
);
export type FaultBodyChange = Static<typeof FaultBodyChange>;
const FaultEffect = Type.Object(
  {
    status: Type.Optional(
      Type.Integer({
        minimum: 200,
        maximum: 599,
        description:
          "answer this status with the error body instead of serving (with `body.json` or `body.text`, that body; " +
          "below 400 only with one)",
      }),
    ),
    retryAfter: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86_400,
        description: "seconds sent as `Retry-After` with `status`; default 1 with a 503 or a 429",
      }),
    ),
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000, description: "wait this long first" })),
    rateLimit: Type.Optional(
      Type.Object(
        {
          requests: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          perSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
        },
        {
          additionalProperties: false,
          description: "beyond this many matching requests per window, 429 with Retry-After",
        },
      ),
    ),
    dropConnection: Type.Optional(Type.Boolean({ description: "close the socket without answering" })),
    body: Type.Optional(FaultBodyChange),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      "at least one of them, and one that does something (not only `latencyMs: 0` or `dropConnection: false`)",
  },
);
export const FaultBody = Type.Object(
  {
    match: FaultMatch,
    effect: FaultEffect,
    times: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "apply to this many matching requests, then retire",
      }),
    ),
    probability: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "apply to this share of matching requests (seeded); above 0",
      }),
    ),
    seed: Type.Integer({ ...SafeInteger, default: 1, description: "seed of the probability draws, so a run repeats" }),
  },
  { additionalProperties: false },
);
export type FaultBody = Static<typeof FaultBody>;
export const Fault = Type.Object(
  { id: Type.String(), ...FaultBody.properties, applied: Type.Integer(SafeInteger) },
  { additionalProperties: false, $id: "Fault" },
);
export type Fault = Static<typeof Fault>;
export const FaultList = Type.Object({ faults: Type.Array(Fault) }, { additionalProperties: false, $id: "FaultList" });
export const FaultParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
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
