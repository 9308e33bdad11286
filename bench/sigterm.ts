// Seconds from SIGTERM to exit under a keep-alive mint load: `node bench/sigterm.ts [--runs 3] [--load-seconds 10] [--clients 8] [--fixture <world>]`.
// Each run starts `src/cli/simulate.ts` (the default world unless --fixture), loads it with mint clients on
// kept-alive connections, sends SIGTERM mid-load, and reports how long the process took to exit and how many
// mints were answered 200 before and after the stop line's time.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    "load-seconds": { type: "string", default: "10" },
    clients: { type: "string", default: "8" },
    fixture: { type: "string" },
  },
});

async function run(): Promise<void> {
  const args = [
    "src/cli/simulate.ts",
    "--port",
    "0",
    "--no-rpc",
    ...(values.fixture ? ["--fixture", values.fixture] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  while (!output.includes("Ctrl-C stops") && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  const base = output.match(/API\s+(http:\/\/\S+)\/api\/v2/)![1]!;
  // The banner's sample mint: a key, a collection it may mint on, a recipient and the chain.
  const minterKey = output.match(/-X POST '[^']*apiKey=([^']+)'/)![1]!;
  const [, collection, owner, chainId] = output.match(
    /"collectionAddress":"(0x[0-9a-f]{40})","recipient":"(0x[0-9a-f]{40})","chainId":(\d+)/,
  )!;
  const outcomes: { sentAt: number; status: number }[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const sentAt = Date.now();
      try {
        const response = await fetch(`${base}/api/v2/item/new?apiKey=${minterKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            collectionAddress: collection,
            recipient: owner,
            chainId: Number(chainId),
            item: { name: "Load", initialSupply: 5 },
          }),
        });
        await response.arrayBuffer();
        outcomes.push({ sentAt, status: response.status });
      } catch {
        if (child.exitCode !== null) return;
      }
    }
  };
  const clients = Array.from({ length: Number(values.clients) }, client);
  await new Promise((r) => setTimeout(r, Number(values["load-seconds"]) * 1000));
  const signalledAt = performance.now();
  child.kill("SIGTERM");
  await once(child, "exit");
  const exitSeconds = (performance.now() - signalledAt) / 1000;
  running = false;
  await Promise.all(clients);
  const stop = Date.parse(output.match(/SIGTERM at (\S+Z): stopping/)![1]!);
  const minted = (after: boolean) => outcomes.filter((o) => o.status === 200 && o.sentAt > stop === after).length;
  const refused = outcomes.filter((o) => o.sentAt > stop && o.status === 503).length;
  console.log(
    `exit ${exitSeconds.toFixed(2)} s after SIGTERM (code ${child.exitCode}); mints 200: ${minted(false)} sent before the stop, ${minted(true)} after; ${refused} answered 503 after`,
  );
}

for (let i = 0; i < Number(values.runs); i += 1) await run();
