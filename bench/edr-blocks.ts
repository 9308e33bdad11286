// `node --expose-gc bench/edr-blocks.ts [txs] [per-block ...]` (0: empty blocks; one mode per process measures cleanest): what an in-process EDR chain keeps
// per block and per transaction. On a fresh chain, sends `txs` transactions that each write one new
// storage slot (the test stablecoin's faucet to a new address, as a mint creates new token slots),
// mined one per block (automine) or `per-block` at a time (automine off, then one `evm_mine`), and
// prints RSS and V8 heap after a forced GC, per transaction. Also: the same number of empty blocks.
import { encodeFunctionData, toHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { loadAbis } from "../src/core/abi.ts";
import { deployCore } from "../src/chain/deploy.ts";
import { addressOf, deployerKey } from "../src/core/keys.ts";
import { startChain } from "../src/chain/network.ts";

const txs = Number(process.argv[2] ?? 4000);
// --estimate: each transaction is estimated first (eth_estimateGas), as the API's writes are.
const estimate = process.argv.includes("--estimate");
process.argv = process.argv.filter((arg) => arg !== "--estimate");
const modes = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [1];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const abis = loadAbis();

function settle(): { rss: number; heap: number } {
  for (let i = 0; i < 3; i++) gc!();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

const rows: Record<string, string | number>[] = [];
for (const perBlock of modes) {
  const key = deployerKey(31337);
  const from = addressOf(key);
  const chain = await startChain({ chainId: 31337, keys: [key] });
  const { stablecoin } = await deployCore(chain, from);
  const provider = chain.connection.provider;
  const send = async () => {
    const tx = {
      from,
      to: stablecoin,
      data: encodeFunctionData({
        abi: abis.stablecoin,
        functionName: "mint",
        args: [privateKeyToAddress(generatePrivateKey()), 1n],
      }),
    };
    if (estimate) await provider.request({ method: "eth_estimateGas", params: [tx] });
    return (await provider.request({
      method: "eth_sendTransaction",
      params: [{ ...tx, gas: toHex(200_000n) }],
    })) as Hex;
  };
  const before = settle();
  const started = performance.now();
  if (perBlock === 0) {
    for (let i = 0; i < txs; i++) await provider.request({ method: "evm_mine", params: [] });
  } else if (perBlock === 1) {
    for (let i = 0; i < txs; i++) await send();
  } else {
    await provider.request({ method: "evm_setAutomine", params: [false] });
    for (let sent = 0; sent < txs; sent += perBlock) {
      await Promise.all(Array.from({ length: Math.min(perBlock, txs - sent) }, send));
      await provider.request({ method: "evm_mine", params: [] });
    }
    await provider.request({ method: "evm_setAutomine", params: [true] });
  }
  const seconds = (performance.now() - started) / 1000;
  const after = settle();
  const blocks = perBlock === 0 ? txs : Math.ceil(txs / perBlock);
  rows.push({
    mode:
      perBlock === 0
        ? `${txs} empty blocks`
        : `${txs} txs, ${perBlock} per block${estimate ? ", each estimated first" : ""}`,
    blocks,
    "KB RSS per tx": perBlock === 0 ? "–" : +((after.rss - before.rss) / txs / 1024).toFixed(1),
    "KB RSS per block": +((after.rss - before.rss) / blocks / 1024).toFixed(1),
    "KB heap per tx": +((after.heap - before.heap) / txs / 1024).toFixed(2),
    "txs/s": perBlock === 0 ? "–" : Math.round(txs / seconds),
  });
  await chain.close();
}
console.table(rows);
