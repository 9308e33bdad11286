import type { NodeRpc } from "./rpc.ts";

/**
 * What a node lets the simulator do beyond plain Ethereum JSON-RPC (anvil and Hardhat's node allow all of it; a testnet
 * none).
 */
export interface NodeCapabilities {
  client: string;
  /** `evm_setNextBlockTimestamp`: a timed scenario can be replayed, time advanced. */
  setsTime: boolean;
  /** `hardhat_impersonateAccount`: send as a wallet without its key. */
  impersonates: boolean;
  /** `hardhat_setBalance`: fund a wallet out of thin air. */
  setsBalance: boolean;
  /** `evm_snapshot` / `evm_revert`: snapshots and reset. */
  snapshots: boolean;
  /**
   * `eth_sendTransactionSync` / `eth_sendRawTransactionSync` (EIP-7966; anvil has them): the send answers the receipt
   * once mined.
   */
  sendsSync: boolean;
  /**
   * `evm_setAutomine` and `hardhat_getAutomine`: mining held while several transactions go into one block (the
   * replay's entries that name one live block), then given back as it was.
   */
  holdsMining: boolean;
}

const INVALID_PARAMS = -32602;

/**
 * Asks the node which of the dev methods it has, without changing anything: each is called
 * with no parameters, which a node that has it refuses as invalid params (-32602) or (a read) answers; any other
 * answer (an unknown method, a provider's "unsupported") counts as not having it. One round trip.
 */
export async function probeCapabilities(rpc: NodeRpc): Promise<NodeCapabilities> {
  const probes = [
    "evm_setNextBlockTimestamp",
    "hardhat_impersonateAccount",
    "hardhat_setBalance",
    "evm_revert",
    "eth_sendTransactionSync",
    "eth_sendRawTransactionSync",
    "evm_setAutomine",
    "hardhat_getAutomine",
  ];
  const [client, ...answers] = await rpc.batch([
    { method: "web3_clientVersion" },
    ...probes.map((method) => ({ method })),
  ]);
  const has = answers.map((answer) => "result" in answer || answer.error.code === INVALID_PARAMS);
  return {
    client: client && "result" in client ? String(client.result) : "unknown client",
    setsTime: has[0]!,
    impersonates: has[1]!,
    setsBalance: has[2]!,
    snapshots: has[3]!,
    sendsSync: has[4]! && has[5]!,
    holdsMining: has[6]! && has[7]!,
  };
}
