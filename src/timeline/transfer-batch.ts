import { Type } from "@sinclair/typebox";
import { encodeFunctionData } from "viem";
import { timelineAction } from "./action.ts";
import { checkItem } from "./checks.ts";
import { Amount, Copy, Handle } from "./fields.ts";

/** One safeBatchTransferFrom, sent by the holder: every entry must be in the same collection. */
export const transferBatch = timelineAction({
  name: "transferBatch",
  fields: {
    from: Handle,
    to: Handle,
    items: Type.Array(Type.Object({ item: Handle, copy: Copy, amount: Amount }, { additionalProperties: false }), {
      minItems: 1,
    }),
  },
  accounts: ["to", "from"],

  check(state, step) {
    const batch = step.action.items.map((entry, j) =>
      checkItem(state, step, `${step.path}.items[${j}]`, entry.item, entry.copy),
    );
    const owners = new Set(batch.filter(Boolean).map((found) => found!.collection));
    if (owners.size > 1)
      state.problems.push(
        `${step.path}.items: a batch moves tokens of one collection only, not of ${[...owners].join(", ")}`,
      );
    step.chainId = state.collections.get(batch.find(Boolean)?.collection ?? "")?.chainId ?? 0;
  },

  async rule(ledger, entry, path) {
    for (const [j, { item, copy = 1, amount }] of entry.items.entries()) {
      ledger.debit(`${path}.items[${j}]`, item, copy, entry.from, BigInt(amount));
      ledger.credit(item, copy, entry.to, BigInt(amount));
    }
  },

  send(replay, entry, at) {
    const tokens = entry.items.map(({ item, copy }) => replay.token(item, copy));
    const from = replay.account(entry.from);
    const tokenIds = tokens.map(({ tokenId }) => tokenId);
    const amounts = entry.items.map(({ amount }) => BigInt(amount));
    const args = [from, replay.account(entry.to), tokenIds, amounts, "0x"] as const;
    const data = encodeFunctionData({ abi: replay.chain.abis.collection, functionName: "safeBatchTransferFrom", args });
    return replay.chain.write(from, { to: tokens[0]!.collection, data }, {}, at);
  },
});
