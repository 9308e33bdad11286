import type { Simulator } from "../simulator.ts";
import { chainProfile } from "../config.ts";
import { collectionViews } from "../views/collections.ts";

/** What a developer needs on start-up: where things are, which keys to use, and a request to try per endpoint. */
export function banner(sim: Simulator, startedInMs: number): string {
  const chains = [...sim.chains.values()];
  const first = chains[0]!;
  const sample = [...collectionViews(first.indexer.models, sim.metadata).values()][0]?.collection;
  const collection = sample?.address ?? "<collection address>";
  const minter = sim.accounts[0];
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
