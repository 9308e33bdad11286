import { keccak256, stringToBytes } from "viem";

/** The collection's role for developer wallets that may create items and mint. */
export const MINTER_ROLE = keccak256(stringToBytes("MINTER_ROLE"));
