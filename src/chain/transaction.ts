import { toHex, type Address, type Hex } from "viem";
import { FEES, FIXED_GAS, type ContractCall, type WriteOptions } from "./contract-call.ts";
import type { LocalSigner } from "./local-signer.ts";
import type { ChainLink } from "./network.ts";

/**
 * A contract call from `from` as the chain takes it (its gas limit estimated, given, or the fixed one), and how to send
 * it alone: in process, an account the chain only impersonates is signed for here (its replay then gives the same
 * hash); a node's writer signs with the given keys (--keys) or sends as an impersonated account. An estimate that
 * reverts throws.
 */
export async function transactionOf(
  chain: ChainLink,
  signer: LocalSigner | undefined,
  from: Address,
  call: ContractCall,
  { dryRun = false, at, gas, pooled = false }: WriteOptions,
): Promise<{ sendable: Record<string, string> & { gas: Hex }; send: () => Promise<Hex> }> {
  const provider = chain.connection.provider;
  const tx = { from, to: call.to, data: call.data, ...FEES, ...(call.value ? { value: toHex(call.value) } : {}) };
  // An estimate is exact for the state it saw; a write that lands after another may need more.
  // Against the latest block: while a batch waits to be mined, "pending" would run it first. Without the fee caps: a
  // node caps the estimate at what the sender can pay for, and the wallet that signs (one of a pool) may not be `from`.
  const { maxFeePerGas: _cap, maxPriorityFeePerGas: _tip, ...unpriced } = tx;
  const estimate = async () =>
    (BigInt((await provider.request({ method: "eth_estimateGas", params: [unpriced, "latest"] })) as Hex) * 5n) / 4n;
  const sendable = { ...tx, gas: toHex(gas ?? (dryRun ? await estimate() : FIXED_GAS)) };
  const node = chain.node;
  if (node) return { sendable, send: () => node.writer.send(sendable, at, { pooled }) };
  const sign = await signer?.signerFor(from);
  const send = async () => {
    if (at !== undefined) await provider.request({ method: "evm_setNextBlockTimestamp", params: [at] });
    return (await (sign
      ? provider.request({ method: "eth_sendRawTransaction", params: [await sign(sendable)] })
      : provider.request({ method: "eth_sendTransaction", params: [sendable] }))) as Hex;
  };
  return { sendable, send };
}
