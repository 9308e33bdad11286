import { toHex, type Address, type Hex } from "viem";

/** One contract call as a transaction: where to, its calldata, and the coin it carries. */
export interface ContractCall {
  to: Address;
  data: Hex;
  value?: bigint;
}

export interface WriteOptions {
  /** Estimate first: a call the contract refuses throws before anything is sent (the API's writes). */
  dryRun?: boolean;
  /** Unix time of the block the transaction lands in (scenario replay). */
  at?: number;
  /** This gas limit, as recorded (journal replay). */
  gas?: bigint;
  /**
   * Any wallet of the sender's pool may sign it (on a node, with a keys file that gives the sender several keys): what
   * the contract asks of the sender is a role the whole pool holds (the API's mints).
   */
  pooled?: boolean;
  /**
   * The transaction joins others waiting in the pool for one block (a replayed block several timeline entries share):
   * its gas limit is estimated against that pending block, so that they all fit in it, and a call that would revert
   * there throws before it is sent (a pooled transaction that reverts throws nothing).
   */
  sharedBlock?: boolean;
}

// Every transaction the simulator sends names its own fee caps, which spares Hardhat an
// eth_feeHistory round trip and gives the same bytes (so the same hash) on every run.
// Blocks here are far from full, so the base fee only falls and stays below the cap.
export const MAX_FEE_PER_GAS = 100n * 10n ** 9n;
export const MAX_PRIORITY_FEE_PER_GAS = 10n ** 9n;

// Without a dry run every transaction carries the same gas limit: no estimation round trip,
// and the same bytes (so the same hash) on every run. Enough for a 100-token addItems.
export const FIXED_GAS = 15_000_000n;

// A transaction that shares a block is given its estimate rounded up to a multiple of this: chains estimate a little
// differently (anvil and EDR by a few hundred gas on a listing), and the limit is signed, so a world signed with its
// own keys gets the same hashes on a node as in process.
export const SHARED_GAS_STEP = 100_000n;
export const FEES = { maxFeePerGas: toHex(MAX_FEE_PER_GAS), maxPriorityFeePerGas: toHex(MAX_PRIORITY_FEE_PER_GAS) };
