import type { RevertRules } from "../revert.ts";

/** The marketplace's refusals, as a seller or buyer reads them. */
export const MARKET_RULES: RevertRules = {
  NotSeller: ([listingId, account]) => `${account} is not the seller of listing ${listingId}`,
  ListingNotActive: ([listingId]) => `listing ${listingId} is not open`,
  WrongPayment: ([expected, sent]) => `the payment must be ${expected} wei, not ${sent}`,
  InvalidAmount: () => "the amount must be at least 1 and at most what is listed",
  InvalidPrice: () => "the price must be above 0",
  PaymentFailed: ([to]) => `paying ${to} failed`,
};
