import { expect, it } from "vitest";
import { BlockBatcher, type RequestProvider } from "../../src/chain/block-batcher.ts";

/** A stand-in for EDR: automine by default, a mempool when it is off, and transactions that revert when their data says so. */
function fakeChain() {
  const calls: string[] = [];
  let automine = true;
  let pending: string[] = [];
  let blocks = 0;
  const receipts = new Map<string, { status: string; blockNumber: string }>();
  let next = 0;
  const mine = (hashes: string[]) => {
    blocks += 1;
    for (const hash of hashes)
      receipts.set(hash, { status: hash.endsWith("bad") ? "0x0" : "0x1", blockNumber: `0x${blocks.toString(16)}` });
  };
  const provider: RequestProvider = {
    async request({ method, params = [] }) {
      calls.push(method);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const tx = params[0] as { data?: string } | undefined;
      switch (method) {
        case "evm_setAutomine":
          automine = params[0] as boolean;
          return null;
        case "eth_sendTransaction": {
          const hash = `0x${++next}${tx!.data === "0xbad" ? "bad" : ""}`;
          if (automine) mine([hash]);
          else pending.push(hash);
          return hash;
        }
        case "eth_sendRawTransaction": {
          const hash = `0x${params[0]}`;
          if (automine) mine([hash]);
          else pending.push(hash);
          return hash;
        }
        case "hardhat_getAutomine":
          return automine;
        case "evm_mine":
          mine(pending);
          pending = [];
          return "0x0";
        case "eth_getTransactionReceipt":
          return receipts.get(params[0] as string) ?? null;
        case "eth_estimateGas":
          if (tx!.data === "0xbad") throw Object.assign(new Error("reverted"), { data: "0xdeadbeef" });
          return "0x5208";
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  };
  return { provider, calls, blocks: () => blocks, receipts };
}

const tx = (data = "0x01") => ({ from: "0xa", to: "0xb", data, gas: "0x5208" as const });

it("sends a lone transaction as it is (automine: its own block), and keeps its receipt for its writer, once", async () => {
  const chain = fakeChain();
  const batcher = new BlockBatcher(chain.provider);
  const hash = await batcher.send(tx());
  expect(chain.calls).toEqual(["eth_sendTransaction", "eth_getTransactionReceipt"]);
  expect(chain.receipts.get(hash)?.status).toBe("0x1");
  expect(batcher.takeReceipt(hash)).toEqual(chain.receipts.get(hash));
  expect(batcher.takeReceipt(hash)).toBeUndefined();
});

it("mines transactions that wait together in one block, each answered once it is mined", async () => {
  const chain = fakeChain();
  const batcher = new BlockBatcher(chain.provider);
  const hashes = await Promise.all([batcher.send(tx()), batcher.send(tx()), batcher.send(tx()), batcher.send(tx())]);
  // The first goes alone (the chain was idle); the three that arrived meanwhile share the next block.
  expect(chain.blocks()).toBe(2);
  expect(new Set(hashes.slice(1).map((hash) => chain.receipts.get(hash)!.blockNumber)).size).toBe(1);
  expect(chain.calls.filter((method) => method === "evm_mine")).toHaveLength(1);
  expect(chain.calls.at(-4)).toBe("evm_setAutomine");
  for (const hash of hashes.slice(1)) expect(batcher.takeReceipt(hash)).toMatchObject({ status: "0x1" });
});

it("a transaction that reverts inside a shared block rejects with what the same call throws, the others resolve", async () => {
  const chain = fakeChain();
  const batcher = new BlockBatcher(chain.provider);
  const results = await Promise.allSettled([
    batcher.send(tx()),
    batcher.send(tx()),
    batcher.send(tx("0xbad")),
    batcher.send(tx()),
  ]);
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
  expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ data: "0xdeadbeef" });
});

it("runs exclusive work alone, between blocks, in the order it was asked for", async () => {
  const chain = fakeChain();
  const batcher = new BlockBatcher(chain.provider);
  const order: string[] = [];
  await Promise.all([
    batcher.send(tx()).then(() => order.push("a")),
    batcher.exclusive(async () => order.push("exclusive")),
    batcher.send(tx()).then(() => order.push("b")),
  ]);
  expect(order).toEqual(["a", "exclusive", "b"]);
});

it("asks whether automine is on only when something else ran on the chain since it last left it on", async () => {
  const chain = fakeChain();
  const batcher = new BlockBatcher(chain.provider);
  const asked = () => chain.calls.filter((method) => method === "hardhat_getAutomine").length;
  // Sent together: at least two of each three share a block.
  const together = () => Promise.all([batcher.send(tx()), batcher.send(tx()), batcher.send(tx())]);
  await together();
  await together();
  expect(asked()).toBe(1);
  const blocks = chain.blocks();
  expect(blocks).toBeLessThanOrEqual(4);
  // From outside, automine goes off: the next shared block must notice and leave the chain stalled.
  await batcher.exclusive(() => chain.provider.request({ method: "evm_setAutomine", params: [false] }));
  const stalled = await together();
  expect(asked()).toBe(2);
  expect(chain.blocks()).toBe(blocks);
  expect(stalled.filter((hash) => chain.receipts.has(hash))).toEqual([]);
  await chain.provider.request({ method: "evm_mine" });
  expect(stalled.filter((hash) => chain.receipts.has(hash))).toEqual(stalled);
});
