// `node bench/replay-floor.ts [--items 17000] [--holders 1200] [--transfers 20000] [--mode timestamp|mine|mine-receipt|none]
// [--chains 1]`: the floor of an imported world's cold start, EDR's own CPU for one transaction a block. A chain started
// as the simulator starts one (its holders impersonated), the core contracts and one collection; `--items` items added
// by the keyed minter (each a block, signed by EDR), then `--transfers` safeTransferFrom sent by impersonated holders,
// each a block at a time of its own, as the replay sends them:
//   timestamp: evm_setNextBlockTimestamp, then eth_sendTransaction (automine; what the replay does)
//   mine:      automine off, eth_sendTransaction, then evm_mine at the time
//   mine-receipt: the same, then its receipt (a pooled transaction that reverts throws nothing: its status tells)
//   none:      eth_sendTransaction alone (EDR stamps the block)
// Prints the process's CPU time (user + system: EDR's threads and this one) and wall clock per transaction of each
// phase, the transfers in four windows so that growth with the state shows. `--chains 2`: that many chains at once, side
// by side in this process (as a world's chains replay), each doing all of the above: the figures are then the whole
// process's for all chains' transactions together.
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { encodeFunctionData, parseEventLogs, toHex, type Address, type Hex } from "viem";
import { loadAbis } from "../src/core/abi.ts";
import { deployCore } from "../src/chain/deploy.ts";
import { addressOf, keyFor } from "../src/core/keys.ts";
import { startChain } from "../src/chain/network.ts";
import { FEES, FIXED_GAS } from "../src/chain/contract-call.ts";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "17000" },
    holders: { type: "string", default: "1200" },
    transfers: { type: "string", default: "20000" },
    mode: { type: "string", default: "timestamp" },
    chains: { type: "string", default: "1" },
  },
});
const [items, holderCount, transfers, chainCount] = [values.items, values.holders, values.transfers, values.chains].map(
  Number,
) as [number, number, number, number];
const mode = values.mode as "timestamp" | "mine" | "mine-receipt" | "none";
const loadAtStart = loadavg()[0]!;
const abis = loadAbis();
const minterKey = keyFor("bench/replay-floor/minter");
const minter = addressOf(minterKey);
const holders = Array.from(
  { length: holderCount },
  (_, i) => `0x${(0x10_0000 + i).toString(16).padStart(40, "a")}` as Address,
);
const holderOf = (item: number) => holders[item % holders.length]!;
const genesis = Math.floor(Date.UTC(2022, 0, 1) / 1000);

/** One chain, set up: sends one transaction a block at the next minute. */
async function floorChain(chainId: number) {
  const chain = await startChain({
    chainId,
    keys: [minterKey],
    impersonated: holders,
    genesisTime: new Date(genesis * 1000),
  });
  const request = (method: string, params: unknown[] = []) => chain.connection.provider.request({ method, params });
  const { factory } = await deployCore(chain, minter);
  let time = genesis + 100;
  const send = async (tx: { from: Address; to: Address; data: Hex }): Promise<Hex> => {
    time += 60;
    const sendable = { ...tx, ...FEES, gas: toHex(FIXED_GAS) };
    if (mode === "timestamp") await request("evm_setNextBlockTimestamp", [time]);
    if (!mode.startsWith("mine")) return (await request("eth_sendTransaction", [sendable])) as Hex;
    const hash = (await request("eth_sendTransaction", [sendable])) as Hex;
    await request("evm_mine", [time]);
    if (mode === "mine-receipt") await request("eth_getTransactionReceipt", [hash]);
    return hash;
  };
  if (mode.startsWith("mine")) await request("evm_setAutomine", [false]);
  const created = await send({
    from: minter,
    to: factory,
    data: encodeFunctionData({
      abi: abis.factory,
      functionName: "createCollection",
      args: ["Floor", `http://127.0.0.1/metadata/${chainId}/floor`, minter, [minter], "0x"],
    }),
  });
  const { logs } = (await request("eth_getTransactionReceipt", [created])) as {
    logs: { data: Hex; topics: [Hex, ...Hex[]] }[];
  };
  const [event] = parseEventLogs({ abi: abis.factory, eventName: "CollectionCreated", logs: logs as never });
  const to = event!.args.collection;
  return {
    addItem: (i: number) =>
      send({
        from: minter,
        to,
        data: encodeFunctionData({
          abi: abis.collection,
          functionName: "addItem",
          args: [holderOf(i), 10n, 10n, 0n, "0x"],
        }),
      }),
    transfer: (n: number) => {
      const item = n % items;
      const from = holderOf(item);
      return send({
        from,
        to,
        data: encodeFunctionData({
          abi: abis.collection,
          functionName: "safeTransferFrom",
          args: [from, holders[(item * 7 + 1) % holders.length]!, BigInt(item + 1), 1n, "0x"],
        }),
      });
    },
    close: () => chain.close(),
  };
}

const chains = await Promise.all(Array.from({ length: chainCount }, (_, i) => floorChain(137 + i)));
const rows: Record<string, string | number>[] = [];
/** Each chain runs `count` steps, all chains at once; the row is the process's CPU and the wall clock for them all. */
const perChain = async (
  label: string,
  count: number,
  step: (chain: (typeof chains)[number], i: number) => Promise<unknown>,
) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    chains.map(async (chain) => {
      for (let i = 0; i < count; i++) await step(chain, i);
    }),
  );
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  const txs = count * chainCount;
  rows.push({
    phase: label,
    txs,
    "CPU s": +seconds.toFixed(1),
    "CPU ms/tx": +((seconds * 1000) / txs).toFixed(3),
    "wall ms/tx": +((performance.now() - started) / txs).toFixed(3),
  });
};
await perChain("addItem, minter signed by EDR", items, (chain, i) => chain.addItem(i));
const window = Math.max(1, Math.floor(transfers / 4));
for (let done = 0; done < transfers; done += window) {
  const count = Math.min(window, transfers - done);
  await perChain(`safeTransferFrom ${done + 1}–${done + count}, impersonated`, count, (chain, i) =>
    chain.transfer(done + i),
  );
}
await Promise.all(chains.map((chain) => chain.close()));
console.log(
  `mode ${mode}, ${chainCount} chain(s) at once, ${items} items and ${holderCount} holders each; load average ` +
    `${loadAtStart.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
);
console.table(rows);
