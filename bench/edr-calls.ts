// `npm exec -- node bench/edr-calls.ts [--seconds 80]`: which of the chain's calls slow down as a chain grows. The
// demo world in this process, 16 clients minting over HTTP; every call the simulator makes to EDR is timed per method
// (Hardhat's EdrProvider.request, patched here from its internal module path: a diagnostic, not a benchmark of ours),
// in a 5-second window at the start and another after --seconds of minting.
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import type { Address } from "viem";
import { EdrProvider } from "../node_modules/hardhat/dist/src/internal/builtin-plugins/network-manager/edr/edr-provider.js";
import { demoWorld } from "../src/scenario/worlds.ts";
import { startSimulator } from "../src/simulator/simulator.ts";
import { mintRequest } from "./lib/worlds.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "80" } } });

const calls = new Map<string, { count: number; ms: number }>();
const request = EdrProvider.prototype.request;
EdrProvider.prototype.request = async function timed(this: EdrProvider, args: { method: string }) {
  const started = performance.now();
  try {
    return await request.call(this, args as never);
  } finally {
    const call = calls.get(args.method) ?? { count: 0, ms: 0 };
    call.count += 1;
    call.ms += performance.now() - started;
    calls.set(args.method, call);
  }
} as typeof request;

const sim = await startSimulator(demoWorld(), { port: 0, serveRpc: false });
const studio = sim.accounts.byApiKey("demo-studio-key")!;
const [collection] = [...(await sim.chains.read(56))[0]!.models.collections.keys()] as Address[];
const mint = (seconds: number) =>
  autocannon({
    ...mintRequest(sim.url, { apiKey: studio.apiKey, wallet: studio.wallet, collection, chainId: 56 }),
    connections: 16,
    duration: seconds,
  });
const window = async (label: string) => {
  calls.clear();
  const result = await mint(5);
  const shown = [...calls]
    .filter(([, { count }]) => count > 10)
    .map(([method, { count, ms }]) => `${method} ${count} × ${(ms / count).toFixed(2)} ms`);
  console.log(`${label}: ${Math.round(result.requests.average)} mints/s; ${shown.join(", ")}`);
};

await window("at the start");
const grown = await mint(Number(values.seconds));
await window(`after ${grown.requests.total.toLocaleString("en")} more mints`);
await sim.close();
process.exit(0);
