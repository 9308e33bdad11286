import { keccak256, stringToBytes, type Address } from "viem";
import { chainProfile, type ApiAccount } from "../config.ts";
import { itemKey } from "../indexer/models.ts";
import type { SimChain, Simulator } from "../simulator.ts";
import { collectionViews } from "../views/collections.ts";

/** What a developer needs on start-up: where things are, which keys to use, and a request to try per endpoint. */
export async function banner(sim: Simulator, startedInMs: number): Promise<string> {
  const chains = [...sim.chains.values()];
  const sample = await mintSample(sim);
  const first = sample?.chain ?? chains[0]!;
  const collection = sample?.collection ?? [...collectionViews(first.indexer.models, sim.metadata).keys()][0] ?? "<collection address>";
  const minter = sample?.account ?? sim.accounts[0];
  const lines = [
    `NFT service simulator ready in ${(startedInMs / 1000).toFixed(1)} s`,
    "",
    `  API        ${sim.url}/api/v2`,
    ...chains.map(({ chainId, rpcUrl, contracts }) =>
      `  chain ${String(chainId).padEnd(4)} ${chainProfile(chainId).name}: ${rpcUrl ?? "(no JSON-RPC)"}  marketplace ${contracts.marketplace}  stablecoin ${contracts.stablecoin}`,
    ),
    "",
    "  API keys (developer wallets):",
    ...sim.accounts.map(({ apiKey, name, wallet }) => `    ${apiKey.padEnd(20)} ${name.padEnd(10)} ${wallet}`),
    "",
    "  Try:",
    `    curl '${sim.url}/api/v2/collection?perPage=5&sortBy=volume_all'`,
    `    curl '${sim.url}/api/v2/collection/${collection}'`,
    `    curl '${sim.url}/api/v2/item/events/${collection}/1'`,
    `    curl -X POST '${sim.url}/api/v2/item/new?apiKey=${minter?.apiKey ?? "<key>"}' -H 'content-type: application/json' \\`,
    `      -d '{"collectionAddress":"${collection}","recipient":"${minter?.wallet ?? "0x…"}","chainId":${first.chainId},"item":{"name":"Sword","initialSupply":10}}'`,
    "",
    "  Ctrl-C stops.",
  ];
  return lines.join("\n");
}

const MINTER_ROLE = keccak256(stringToBytes("MINTER_ROLE"));

/** A collection with an item, and an API key whose wallet holds its minter role, so that every sample request answers 200. */
async function mintSample(sim: Simulator): Promise<{ chain: SimChain; collection: Address; account: ApiAccount } | undefined> {
  for (const chain of sim.chains.values()) {
    for (const collection of chain.indexer.models.collections.keys()) {
      if (!chain.indexer.models.items.has(itemKey(collection, 1n))) continue;
      for (const account of sim.accounts) {
        const args = [MINTER_ROLE, account.wallet] as const;
        const isMinter = await chain.chain.publicClient.readContract({ address: collection, abi: sim.abis.collection, functionName: "hasRole", args });
        if (isMinter) return { chain, collection, account };
      }
    }
  }
  return undefined;
}
