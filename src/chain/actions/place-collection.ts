import { encodeDeployData, encodeFunctionData, pad, toHex, type Address, type Hex } from "viem";
import { FIXED_GAS } from "../contract-call.ts";
import type { SimChain, WriteOptions } from "../sim-chain.ts";
import { artifact } from "../../core/abi.ts";
import { pooledMinters, type CreateCollectionParams } from "./create-collection.ts";

export interface PlaceCollectionParams extends CreateCollectionParams {
  /** Where the collection must live (a live collection's address, in an imported world). */
  address: Address;
}

/**
 * Creates a collection at an address the factory would not choose: the chain places the Collection's creation code
 * there and traces a call to it, so its own constructor says what it writes in place (its storage is what a deployment
 * writes, whatever the compiler lays out), which the chain then writes; its runtime code replaces the creation code,
 * and its owner announces it to the
 * factory, which emits CollectionCreated for it as for its own. Answers the announcement's hash. An address that holds
 * code or has sent a transaction is refused: it is some other account of this chain.
 */
export async function placeCollection(chain: SimChain, p: PlaceCollectionParams, options?: WriteOptions): Promise<Hex> {
  const [code, nonce] = await Promise.all([
    chain.request("eth_getCode", [p.address, "latest"]),
    chain.request("eth_getTransactionCount", [p.address, "latest"]),
  ]);
  if (code !== "0x" || BigInt(nonce as Hex) !== 0n)
    throw new Error(`${p.address} is taken on chain ${chain.chainId}: a collection cannot be placed there`);
  const { abi, bytecode, deployedBytecode } = artifact("Collection");
  const setUp = encodeDeployData({ abi, bytecode, args: [p.name, p.uri, p.owner, pooledMinters(chain, p)] });
  await chain.request("hardhat_setCode", [p.address, setUp]);
  const writes = await constructorWrites(chain, p.address);
  for (const [slot, value] of writes) await chain.request("hardhat_setStorageAt", [p.address, slot, value]);
  await chain.request("hardhat_setCode", [p.address, deployedBytecode]);
  const data = encodeFunctionData({
    abi: chain.abis.factory,
    functionName: "announceCollection",
    args: [p.address, p.metadata],
  });
  return chain.write(p.owner, { to: chain.contracts.factory, data }, {}, options);
}

interface StructLog {
  op: string;
  stack?: string[];
}

/**
 * The storage the creation code now at `address` writes there when called, in order: traced as a call, so it takes no
 * block of its own (an imported history's blocks follow the collection's creation as closely as they did live).
 */
async function constructorWrites(chain: SimChain, address: Address): Promise<[Hex, Hex][]> {
  const call = { to: address, data: "0x", gas: toHex(FIXED_GAS) };
  const trace = (await chain.request("debug_traceCall", [call, "latest"])) as {
    failed: boolean;
    structLogs: StructLog[];
  };
  if (trace.failed) throw new Error(`the collection's set-up at ${address} failed on chain ${chain.chainId}`);
  return trace.structLogs
    .filter((log) => log.op === "SSTORE")
    .map((log) => {
      const [value, slot] = log.stack!.slice(-2).map(word);
      return [toHex(BigInt(slot!)), value!];
    });
}

/** A stack word as 32 bytes of hex (traces write it with or without 0x, padded or not). */
const word = (text: string): Hex => pad(`0x${text.replace(/^0x/, "") || "0"}` as Hex, { size: 32 });
