import { addItem as addStackable, addItems } from "../chain/actions/add-item.ts";
import { timelineAction } from "./action.ts";
import { checkItem } from "./checks.ts";
import { Handle } from "./fields.ts";

/** Creates the item's token id(s) and mints its initialSupply to `to`, signed by `by` (owner, minter). */
export const addItem = timelineAction({
  name: "addItem",
  fields: { item: Handle, by: Handle, to: Handle },
  accounts: ["by", "to"],

  check(state, step) {
    const { action, path } = step;
    const found = checkItem(state, step, path, action.item);
    if (!found) return;
    if (state.added.has(action.item))
      state.problems.push(`${path}.item: item '${action.item}' is already added by ${state.added.get(action.item)}`);
    else if (state.collections.has(found.collection) && !state.created.has(found.collection))
      state.problems.push(`${path}.at: collection '${found.collection}' is not created yet at ${action.at}`);
    state.added.set(action.item, path);
  },

  async rule(ledger, entry, path) {
    await ledger.needMinter(path, entry.by, entry.item);
    const item = ledger.newItem(entry.item)!;
    const copies = item.isStackable === false ? item.initialSupply : 1;
    const amount = item.isStackable === false ? 1n : BigInt(item.initialSupply);
    for (let copy = 1; copy <= copies; copy += 1) ledger.credit(entry.item, copy, entry.to, amount);
    ledger.setSupply(entry.item, amount);
  },

  async send(replay, entry, at) {
    const item = replay.item(entry.item);
    const common = {
      from: replay.account(entry.by),
      collection: replay.collectionOf(item),
      to: replay.account(entry.to),
      royaltyPerMille: BigInt(item.royaltyFee ?? 0),
      metadata: replay.itemMetadata(item),
    };
    // Where it lands is the collection's next token ids, known before the transaction makes them.
    await replay.landItem(item);
    if (item.isStackable === false) return addItems(replay.chain, { ...common, count: BigInt(item.initialSupply) }, at);
    const maxSupply = BigInt(item.maximumSupply ?? item.initialSupply);
    return addStackable(replay.chain, { ...common, initialSupply: BigInt(item.initialSupply), maxSupply }, at);
  },
});
