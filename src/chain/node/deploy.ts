import { toHex, type Address, type Hex } from "viem";
import { lowerAddress } from "../../core/formats.ts";
import type { CoreContracts } from "../deploy.ts";
import { FEES } from "../contract-call.ts";
import { hre } from "../hre.ts";
import type { BlockRef } from "./contracts-file.ts";
import type { NodeRpc, RawReceipt } from "./rpc.ts";
import type { NodeWriter } from "./writer.ts";

const CORE = ["CollectionFactory", "Marketplace", "TestStablecoin"] as const;

/**
 * Deploys the core contracts on a node through its writer, each in its own block. With `time`
 * (a timed world on a node that sets block times) the blocks follow on one second apart from
 * it, as in process; otherwise the node stamps them. Answers the contracts and the factory's block.
 */
export async function deployOnNode(
  rpc: NodeRpc,
  writer: NodeWriter,
  deployer: Address,
  time: number | undefined,
): Promise<{ contracts: CoreContracts; deployedAt: BlockRef }> {
  const addresses: Address[] = [];
  let deployedAt: BlockRef | undefined;
  for (const name of CORE) {
    const { bytecode } = await hre.artifacts.readArtifact(name);
    const tx = { from: deployer, data: bytecode as Hex, ...FEES };
    const gas = (BigInt((await rpc.request("eth_estimateGas", [tx])) as Hex) * 5n) / 4n;
    const hash = await writer.send({ ...tx, gas: toHex(gas) }, time === undefined ? undefined : ++time);
    const receipt = writer.takeReceipt(hash) ?? (await waitForReceipt(rpc, hash));
    if (!receipt.contractAddress) throw new Error(`deploying ${name} created no contract (transaction ${hash})`);
    addresses.push(lowerAddress(receipt.contractAddress));
    deployedAt ??= { block: Number(BigInt(receipt.blockNumber)), hash: receipt.blockHash };
  }
  const [factory, marketplace, stablecoin] = addresses as [Address, Address, Address];
  return { contracts: { factory, marketplace, stablecoin }, deployedAt: deployedAt! };
}

async function waitForReceipt(rpc: NodeRpc, hash: Hex) {
  for (;;) {
    const receipt = (await rpc.request("eth_getTransactionReceipt", [hash])) as RawReceipt | null;
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
