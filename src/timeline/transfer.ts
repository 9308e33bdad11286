import { encodeFunctionData } from "viem";
import { timelineAction } from "./action.ts";
import { checkItem } from "./checks.ts";
import { Amount, Copy, Handle } from "./fields.ts";

/** One safeTransferFrom, sent by the holder. */
export const transfer = timelineAction({
  name: "transfer",
  fields: { item: Handle, copy: Copy, from: Handle, to: Handle, amount: Amount },
  accounts: ["to", "from"],

  check: (state, step) => void checkItem(state, step, step.path, step.action.item, step.action.copy),

  async rule(ledger, entry, path) {
    ledger.debit(path, entry.item, entry.copy ?? 1, entry.from, BigInt(entry.amount));
    ledger.credit(entry.item, entry.copy ?? 1, entry.to, BigInt(entry.amount));
  },

  send(replay, entry, at) {
    const { collection, tokenId } = replay.token(entry.item, entry.copy);
    const from = replay.account(entry.from);
    const args = [from, replay.account(entry.to), tokenId, BigInt(entry.amount), "0x"] as const;
    const data = encodeFunctionData({ abi: replay.chain.abis.collection, functionName: "safeTransferFrom", args });
    return replay.chain.write(from, { to: collection, data }, {}, at);
  },
});
