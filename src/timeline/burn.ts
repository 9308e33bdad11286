import { encodeFunctionData } from "viem";
import { timelineAction } from "./action.ts";
import { checkItem } from "./checks.ts";
import { Amount, Copy, Handle } from "./fields.ts";

/** Consumes `amount` of the holder's tokens (a transfer to the zero address), sent by the holder. */
export const burn = timelineAction({
  name: "burn",
  fields: { item: Handle, copy: Copy, from: Handle, amount: Amount },
  accounts: ["from"],

  check: (state, step) => void checkItem(state, step, step.path, step.action.item, step.action.copy),

  async rule(ledger, entry, path) {
    ledger.debit(path, entry.item, entry.copy ?? 1, entry.from, BigInt(entry.amount));
  },

  send(replay, entry, at) {
    const { collection, tokenId } = replay.token(entry.item, entry.copy);
    const from = replay.account(entry.from);
    const args = [from, tokenId, BigInt(entry.amount)] as const;
    const data = encodeFunctionData({ abi: replay.chain.abis.collection, functionName: "burn", args });
    return replay.chain.write(from, { to: collection, data }, {}, at);
  },
});
