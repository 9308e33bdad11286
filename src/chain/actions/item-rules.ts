import type { RevertRules } from "../revert.ts";

/** The collection contract's refusals of new items and supply, as the mint request's fields read them. */
export const ITEM_RULES: RevertRules = {
  RoyaltyTooHigh: ([fee]) =>
    `item.royaltyFee ${fee} is 30% or more; the collection refuses royalties of 300 per mille or more`,
  SupplyAboveMax: ([, requested, max]) => `item.initialSupply ${requested} is above item.maximumSupply ${max}`,
  InvalidAmount: () => "item.initialSupply must be at least 1",
};
