import { Type, type Static } from "@sinclair/typebox";
import { Closed, Named, SafeInteger, StringEnum } from "./common.ts";

// A fault rule of the control API (`/_sim/faults`): which API requests it matches, and what it makes of them.

const FaultMatch = Closed({
  method: Type.Optional(StringEnum(["GET", "POST", "HEAD"])),
  path: Type.String({
    minLength: 1,
    maxLength: 500,
    description:
      "a path from its leading `/`, `*` matching one segment and `**` any rest: `/api/v2/item/**`; never under " +
      "`/_sim/` (the control API is never faulted)",
  }),
  apiKey: Type.Optional(Type.String({ minLength: 1 })),
});
/** Where in a JSON answer: dotted keys, a number an array's index, `*` every key or element (`collections.*.holders`). */
const AnswerPath = Type.String({ minLength: 1, maxLength: 500, pattern: "^[^.]+(\\.[^.]+)*$" });
const JSON_TYPES = ["string", "number", "boolean", "null", "array", "object"] as const;
const FaultBodyChange = Closed(
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
    description:
      "the body answered: one given whole (`json` or `text`), or the route's own answer changed (`malformed`, " +
      "`truncate`, and `drop`, `rename`, `retype`, `add` on a JSON answer, in that order); the request then goes " +
      "through (a mint is made) and only what the client reads changes",
  },
);
export type FaultBodyChange = Static<typeof FaultBodyChange>;
const FaultEffect = Closed(
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
      Closed(
        {
          requests: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          perSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
        },
        { description: "beyond this many matching requests per window, 429 with Retry-After" },
      ),
    ),
    dropConnection: Type.Optional(Type.Boolean({ description: "close the socket without answering" })),
    body: Type.Optional(FaultBodyChange),
  },
  {
    minProperties: 1,
    description:
      "at least one of them, and one that does something (not only `latencyMs: 0` or `dropConnection: false`)",
  },
);
export const FaultBody = Closed({
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
});
export type FaultBody = Static<typeof FaultBody>;
export const Fault = Named("Fault", { id: Type.String(), ...FaultBody.properties, applied: Type.Integer(SafeInteger) });
export type Fault = Static<typeof Fault>;
export const FaultList = Named("FaultList", { faults: Type.Array(Fault) });
