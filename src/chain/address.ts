import type { Address } from "viem";

/** Addresses are compared and answered in lower case: the one place that writes them so. */
export function lowerAddress(address: string): Address {
  return address.toLowerCase() as Address;
}
