import { zeroAddress, type Address } from "viem";
import { chainProfile, STABLECOIN_USD_PRICE } from "../core/config.ts";
import type { Currency } from "../indexer/models.ts";

/** The currencies every chain's marketplace takes: the native coin and the test stablecoin. */
export const CURRENCY_DECIMALS = { native: 18, stablecoin: 6 } as const;
export type CurrencyName = keyof typeof CURRENCY_DECIMALS;

/** Each currency's address, decimals and USD price on one chain. */
export function currencyTable(chainId: number, stablecoin: Address): Map<Address, Currency> {
  return new Map([
    [zeroAddress, { decimals: CURRENCY_DECIMALS.native, usdPrice: chainProfile(chainId).nativeUsdPrice }],
    [stablecoin, { decimals: CURRENCY_DECIMALS.stablecoin, usdPrice: STABLECOIN_USD_PRICE }],
  ]);
}

/** The address a currency name stands for on a chain. */
export function currencyAddress(name: CurrencyName, stablecoin: Address): Address {
  return name === "native" ? zeroAddress : stablecoin;
}
