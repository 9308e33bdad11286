import { encodeFunctionData } from "viem";
import { ITEM_RULES } from "../chain/actions/add-item.ts";
import { timelineAction } from "./action.ts";
import { checkItem } from "./checks.ts";
import { Amount, Handle } from "./fields.ts";

/** More supply of a stackable item, signed by `by` (a minter, or the item's creator), up to its maximum supply. */
export const mint = timelineAction({
  name: "mint",
  fields: { item: Handle, by: Handle, to: Handle, amount: Amount },
  accounts: ["by", "to"],

  check(state, step) {
    const found = checkItem(state, step, step.path, step.action.item);
    if (found?.isStackable === false)
      state.problems.push(
        `${step.path}.item: '${step.action.item}' is not stackable; each of its tokens has a supply of one`,
      );
  },

  async rule(ledger, entry, path) {
    await ledger.needMinter(path, entry.by, entry.item, true);
    const [supply, max] = ledger.supplyOf(entry.item);
    if (supply + BigInt(entry.amount) > max)
      ledger.problems.push(
        `${path}.amount: minting ${entry.amount} more of item '${entry.item}' (${supply} of at most ${max}) passes its maximum supply`,
      );
    ledger.setSupply(entry.item, supply + BigInt(entry.amount));
    ledger.credit(entry.item, 1, entry.to, BigInt(entry.amount));
  },

  send(replay, entry, at) {
    const { collection, tokenId } = replay.token(entry.item);
    const args = [replay.account(entry.to), tokenId, BigInt(entry.amount)] as const;
    const data = encodeFunctionData({ abi: replay.chain.abis.collection, functionName: "mint", args });
    return replay.chain.write(replay.account(entry.by), { to: collection, data }, ITEM_RULES, at);
  },
});
