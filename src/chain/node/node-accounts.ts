import { formatEther, toHex, type Address, type Hex } from "viem";
import type { RecordedChain } from "./contracts-file.ts";
import { MIN_BALANCE } from "./wallet-gas.ts";
import type { NodeRpc } from "./rpc.ts";
import { nodeRefused, type NodeCapabilities } from "./capabilities.ts";

/** Coin each impersonated wallet gets on a dev node. */
const DEV_BALANCE = 10n ** 24n;

/** With keys given, nothing is funded: every wallet that sends must already hold enough coin there. */
export async function checkFunded(rpc: NodeRpc, chainId: number, senders: Address[]): Promise<void> {
  const outcomes = await rpc.batch(
    senders.map((address) => ({ method: "eth_getBalance", params: [address, "latest"] })),
  );
  const poor = senders.flatMap((address, i) => {
    const outcome = outcomes[i]!;
    const balance = "result" in outcome ? BigInt(outcome.result as Hex) : 0n;
    return balance < MIN_BALANCE ? [`${address} holds ${formatEther(balance)}`] : [];
  });
  if (poor.length > 0)
    throw nodeRefused(
      `chain ${chainId} (${rpc.shown}): ${poor.length} of the wallets whose keys were given cannot pay for a ` +
        `transaction (each needs at least ${formatEther(MIN_BALANCE)} of the native coin): ${poor.join("; ")}. Fund ` +
        `them there and start again.`,
    );
}

/**
 * Without keys, on a dev node: the node sends as the world's wallets (impersonation), each funded there. One round
 * trip.
 */
export async function openWallets(
  rpc: NodeRpc,
  chainId: number,
  capabilities: NodeCapabilities,
  senders: Address[],
): Promise<void> {
  if (!capabilities.impersonates || !capabilities.setsBalance)
    throw nodeRefused(
      `the node at ${rpc.shown} (chain ${chainId}, ${capabilities.client}) cannot send as a wallet without its key ` +
        `(no hardhat_impersonateAccount / hardhat_setBalance): give the world's keys, funded there, with --keys ` +
        `<file> (or SIM_KEYS).`,
    );
  const calls = senders.flatMap((address) => [
    { method: "hardhat_impersonateAccount", params: [address] },
    { method: "hardhat_setBalance", params: [address, toHex(DEV_BALANCE)] },
  ]);
  const refused = (await rpc.batch(calls)).find((outcome) => "error" in outcome);
  if (refused && "error" in refused)
    throw nodeRefused(`chain ${chainId} (${rpc.shown}) refused to open the world's wallets: ${refused.error.message}`);
}

/**
 * Checks that the node still holds what a run recorded: code at the three contracts, and the
 * blocks where they were deployed and where the world finished loading, with the same hashes.
 */
export async function attachTo(
  rpc: NodeRpc,
  chainId: number,
  recorded: RecordedChain,
  file: string,
): Promise<RecordedChain> {
  const contracts = [recorded.factory, recorded.marketplace, recorded.stablecoin];
  const outcomes = await rpc.batch([
    ...contracts.map((address) => ({ method: "eth_getCode", params: [address, "latest"] })),
    ...[recorded.deployedAt, recorded.loadedAt].map(({ block }) => ({
      method: "eth_getBlockByNumber",
      params: [toHex(block), false],
    })),
  ]);
  const results = outcomes.map((outcome) => ("result" in outcome ? outcome.result : undefined));
  const [deployed, loaded] = results.slice(contracts.length);
  const problems = contracts.flatMap((address, i) =>
    !results[i] || results[i] === "0x" ? [`no contract at ${address}`] : [],
  );
  const hashOf = (block: unknown) => (block as { hash?: Hex } | null | undefined)?.hash;
  if (hashOf(deployed) !== recorded.deployedAt.hash)
    problems.push(`block ${recorded.deployedAt.block} (the contracts' deployment) is not the one recorded`);
  if (hashOf(loaded) !== recorded.loadedAt.hash)
    problems.push(`block ${recorded.loadedAt.block} (where the world finished loading) is not the one recorded`);
  if (problems.length > 0)
    throw nodeRefused(
      `chain ${chainId} (${rpc.shown}) is not the chain ${file} was written for: ${problems.join("; ")}. ` +
        `Was the node restarted without its state? Start it with its state, or give a new --contracts file to deploy ` +
        `afresh.`,
    );
  return recorded;
}
