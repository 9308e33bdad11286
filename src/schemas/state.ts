import { Type, type Static } from "@sinclair/typebox";
import { SafeInteger } from "./common.ts";

/** What `--state` keeps, and whether its journal takes writes now (`GET /_sim/state`). */
export const StateResponse = Type.Object(
  {
    kept: Type.Boolean({ description: "whether a journal (--state) keeps every acknowledged change across restarts" }),
    dir: Type.Optional(Type.String({ description: "the --state directory" })),
    journal: Type.Optional(
      Type.Object(
        {
          file: Type.String(),
          bytes: Type.Integer(SafeInteger),
          format: Type.Integer({ minimum: 1 }),
          writable: Type.Boolean({
            description:
              "false while its disk refuses writes (full, read-only, failing): writes answer 507 STORAGE_FULL",
          }),
          since: Type.Optional(Type.String({ format: "date-time", description: "when it stopped taking writes" })),
          reason: Type.Optional(Type.String({ description: "what the disk answered" })),
        },
        { additionalProperties: false },
      ),
    ),
    checkpoint: Type.Optional(
      Type.Object(
        {
          offset: Type.Integer({ ...SafeInteger, description: "how much of the journal (bytes) it holds folded" }),
          behind: Type.Integer({
            ...SafeInteger,
            description: "bytes of the journal after it: what a restart folds on",
          }),
          at: Type.String({ format: "date-time", description: "when it was written" }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: "StateResponse" },
);
export type StateResponse = Static<typeof StateResponse>;
