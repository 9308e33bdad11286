import { Type, type Static } from "@sinclair/typebox";
import { Address, ChainId, Closed, Named, SafeInteger } from "./common.ts";

/** How one wallet that signs API writes on a node stands for gas. */
const WalletGas = Closed({
  address: Address,
  balance: Type.Optional(
    Type.String({ description: "what it holds, in the chain's native coin (absent: the node did not answer)" }),
  ),
  level: Type.Union([Type.Literal("ok"), Type.Literal("low"), Type.Literal("dry"), Type.Literal("unknown")], {
    description:
      "dry: it cannot pay for a write at the simulator's gas limit and fee cap; low: under twice that, fund it " +
      "before it runs dry",
  }),
});

/** What `--state` keeps, and whether its journal takes writes now (`GET /_sim/state`). */
export const StateResponse = Named("StateResponse", {
  kept: Type.Boolean({ description: "whether a journal (--state) keeps every acknowledged change across restarts" }),
  dir: Type.Optional(Type.String({ description: "the --state directory" })),
  journal: Type.Optional(
    Closed({
      file: Type.String(),
      bytes: Type.Integer(SafeInteger),
      format: Type.Integer({ minimum: 1 }),
      writable: Type.Boolean({
        description: "false while its disk refuses writes (full, read-only, failing): writes answer 507 STORAGE_FULL",
      }),
      since: Type.Optional(Type.String({ format: "date-time", description: "when it stopped taking writes" })),
      reason: Type.Optional(Type.String({ description: "what the disk answered" })),
    }),
  ),
  checkpoint: Type.Optional(
    Closed({
      offset: Type.Integer({ ...SafeInteger, description: "how much of the journal (bytes) it holds folded" }),
      behind: Type.Integer({
        ...SafeInteger,
        description: "bytes of the journal after it: what a restart folds on",
      }),
      at: Type.String({ format: "date-time", description: "when it was written" }),
    }),
  ),
  gas: Type.Optional(
    Type.Array(
      Closed({
        chainId: ChainId,
        account: Type.String({ description: "the API key's account" }),
        wallet: Address,
        wallets: Type.Array(WalletGas, {
          description: "the wallets that sign its writes there: its own, then the rest of its pool (--keys)",
        }),
      }),
      {
        description:
          "on each node (--rpc-url) where the simulator signs with given keys (--keys): how much each wallet that " +
          "signs an API key's writes holds",
      },
    ),
  ),
});
export type StateResponse = Static<typeof StateResponse>;
