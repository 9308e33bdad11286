import { apiError, ERRORS, StartError, START_ERRORS, type ApiError } from "../../core/errors.ts";
import type { NodeRpc } from "./rpc.ts";

const INVALID_PARAMS = -32602;

/** The methods a node must have for each capability. */
const PROBES = {
  /** `evm_setNextBlockTimestamp`: a timed scenario can be replayed, time advanced. */
  setsTime: ["evm_setNextBlockTimestamp"],
  /** `hardhat_impersonateAccount`: send as a wallet without its key. */
  impersonates: ["hardhat_impersonateAccount"],
  /** `hardhat_setBalance`: fund a wallet out of thin air. */
  setsBalance: ["hardhat_setBalance"],
  /** `evm_snapshot` / `evm_revert`: snapshots and reset. */
  snapshots: ["evm_revert"],
  /**
   * `eth_sendTransactionSync` / `eth_sendRawTransactionSync` (EIP-7966; anvil has them): the send answers the receipt
   * once mined.
   */
  sendsSync: ["eth_sendTransactionSync", "eth_sendRawTransactionSync"],
  /**
   * `evm_setAutomine` and `hardhat_getAutomine`: mining held while several transactions go into one block (the
   * replay's entries that name one live block), then given back as it was.
   */
  holdsMining: ["evm_setAutomine", "hardhat_getAutomine"],
  /**
   * `anvil_setBlockTimestampInterval` (anvil): empty blocks mined at one time. Without it anvil stamps each block after
   * the first by the wall clock, so a slow `hardhat_mine` leaves its last block later than the next entry's time.
   */
  pinsBlockTime: ["anvil_setBlockTimestampInterval"],
};

/**
 * What a node lets the simulator do beyond plain Ethereum JSON-RPC (anvil and Hardhat's node allow all of it; a testnet
 * none): its client, and each capability of PROBES it has.
 */
export type NodeCapabilities = { client: string } & Record<keyof typeof PROBES, boolean>;

/**
 * Asks the node which of the dev methods it has, without changing anything: each is called
 * with no parameters, which a node that has it refuses as invalid params (-32602) or (a read) answers; any other
 * answer (an unknown method, a provider's "unsupported") counts as not having it. One round trip.
 */
export async function probeCapabilities(rpc: NodeRpc): Promise<NodeCapabilities> {
  const methods = Object.values(PROBES).flat();
  const [client, ...answers] = await rpc.batch([
    { method: "web3_clientVersion" },
    ...methods.map((method) => ({ method })),
  ]);
  const answered = answers.map((answer) => "result" in answer || answer.error.code === INVALID_PARAMS);
  const has = new Set(methods.filter((_, i) => answered[i]));
  const capabilities = Object.entries(PROBES).map(([name, needs]) => [name, needs.every((method) => has.has(method))]);
  return {
    client: client && "result" in client ? String(client.result) : "unknown client",
    ...(Object.fromEntries(capabilities) as Omit<NodeCapabilities, "client">),
  };
}

/** On a node the simulator did not start, what it lacks for an action is NODE_CANNOT (409), not a failure. */
export function needCapability(
  chain: { chainId: number; node: { rpc: NodeRpc; capabilities: NodeCapabilities } | undefined },
  capability: keyof typeof PROBES,
  action: string,
  method: string,
): void {
  const node = chain.node;
  if (!node || node.capabilities[capability]) return;
  const { chainId } = chain;
  const detail = `chain ${chainId} is the node at ${node.rpc.shown} (${node.capabilities.client}), which has no ${method}`;
  throw nodeCannot(chainId, action, detail);
}

export function nodeCannot(chainId: number, action: string, detail: string): ApiError {
  return apiError(ERRORS.NODE_CANNOT, { chainId, action }, { errors: [detail] });
}

/** A node the simulator cannot start a world on as asked (the CLI exits, naming what to change). */
export function nodeRefused(message: string): StartError {
  return new StartError(START_ERRORS.NODE_REFUSED, message);
}
