// The mints baseline: the call the simulator makes for a mint (Collection.addItem, with the bench
// item's metadata as the simulator puts it on chain, by a wallet holding the minter role) sent directly with viem (hardhat-viem) to an
// in-process Hardhat network, each call waited for until its receipt, with no HTTP,
// validation, simulation or indexing around it. `node bench/baselines/mint-viem.ts`;
// the benchmark drives it over IPC: { type: "run", concurrency, seconds }. It also serves
// POST /mint (the same call behind bare Koa) on the port it reports.
import hre from "hardhat";
import Koa from "koa";
import type { AddressInfo } from "node:net";
import { keccak256, parseEventLogs, stringToBytes, type Address } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { encodeItemDescription } from "../../src/metadata/codec.ts";
import { percentile } from "../lib/load.ts";

const key = (label: string) => keccak256(stringToBytes(`bench/${label}`));
const deployerKey = key("deployer");
const minterKey = key("minter");
const minter = privateKeyToAddress(minterKey).toLowerCase() as Address;
const recipient = privateKeyToAddress(key("recipient")).toLowerCase() as Address;
// What the benchmark's mint body ({ name: "Bench Sword", initialSupply: 5 }) puts on chain.
const metadata = encodeItemDescription({
  name: "Bench Sword",
  description: "",
  imageUrl: "",
  fileType: "image/png",
  properties: [],
  isConsumable: false,
});

const connection = await hre.network.create({
  override: {
    chainId: Number(process.argv[2] ?? 56),
    accounts: [deployerKey, minterKey].map((privateKey) => ({ privateKey, balance: 10n ** 24n })),
    allowBlocksWithSameTimestamp: true,
  },
});
const { viem } = connection;
const publicClient = await viem.getPublicClient();
const deployer = await viem.getWalletClient(privateKeyToAddress(deployerKey));
const wallet = await viem.getWalletClient(minter);
const factory = await viem.deployContract("CollectionFactory", [], { client: { wallet: deployer } });
const created = await publicClient.waitForTransactionReceipt({
  hash: await factory.write.createCollection(["Bench", "http://127.0.0.1/metadata", minter, []]),
});
const [event] = parseEventLogs({ abi: factory.abi, eventName: "CollectionCreated", logs: created.logs });
const collection = await viem.getContractAt("Collection", event!.args.collection, {
  client: { public: publicClient, wallet },
});

async function mintOnce(): Promise<void> {
  const hash = await collection.write.addItem([recipient, 5n, 5n, 0n, metadata]);
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`mint ${hash} reverted`);
}

async function run(concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await mintOnce();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    seconds: elapsed,
  };
}

// The same call behind a bare Koa POST route: what HTTP alone adds to a mint (reported beside
// the ratio, to tell the simulator's own cost from the transport's).
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method !== "POST" || ctx.path !== "/mint") return void (ctx.status = 404);
  for await (const _chunk of ctx.req); // read the body, as a JSON API would
  const hash = await collection.write.addItem([recipient, 5n, 5n, 0n, metadata]);
  await publicClient.waitForTransactionReceipt({ hash });
  ctx.body = { txHash: hash };
});
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));

process.on("message", async (message: { type: "run"; concurrency: number; seconds: number }) => {
  if (message.type !== "run") return;
  try {
    process.send!({ type: "result", sample: await run(message.concurrency, message.seconds) });
  } catch (error) {
    process.send!({ type: "error", message: String((error as Error).stack ?? error) });
  }
});
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
process.send!({ type: "ready", port: (server.address() as AddressInfo).port });
