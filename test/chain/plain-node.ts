import { createServer, type Server } from "node:http";

// Nodes as testnets and providers are, made from a real anvil by a JSON-RPC proxy in front of
// it: a plain node answers every evm_*, hardhat_*, anvil_* and synchronous-send call as geth
// answers a method it does not have (-32601); a limited node refuses an eth_getLogs over more
// blocks than it allows, as providers do; a clashing node finds every nonce taken. Everything else
// is forwarded; anvil mines as it would.

const DEV_METHOD = /^(evm_|hardhat_|anvil_)|Sync$/;

type Call = { id?: unknown; method: string; params?: unknown[] };
type Refusal = { code: number; message: string };

interface NodeProxy {
  url: string;
  close(): Promise<void>;
}

export function startPlainNode(target: string): Promise<NodeProxy> {
  return startProxy(target, ({ method }) =>
    DEV_METHOD.test(method)
      ? { code: -32601, message: `the method ${method} does not exist/is not available` }
      : undefined,
  );
}

/** A node that answers eth_getLogs for at most `maxBlocks` blocks; `ranges` lists every eth_getLogs it was asked, refused or not. */
export async function startLimitedNode(
  target: string,
  maxBlocks: number,
): Promise<NodeProxy & { ranges: { blocks: number; refused: boolean }[] }> {
  const ranges: { blocks: number; refused: boolean }[] = [];
  const proxy = await startProxy(target, ({ method, params }) => {
    if (method !== "eth_getLogs") return undefined;
    const { fromBlock, toBlock } = params![0] as { fromBlock: string; toBlock: string };
    const blocks = Number(BigInt(toBlock) - BigInt(fromBlock)) + 1;
    ranges.push({ blocks, refused: blocks > maxBlocks });
    return blocks > maxBlocks
      ? { code: -32602, message: `eth_getLogs is limited to a ${maxBlocks} block range` }
      : undefined;
  });
  return { ...proxy, ranges };
}

/** A node where every raw transaction finds its nonce already taken, as if another writer always sent first. */
export function startClashingNode(target: string): Promise<NodeProxy> {
  return startProxy(target, ({ method }) =>
    method === "eth_sendRawTransaction" ? { code: -32003, message: "nonce too low" } : undefined,
  );
}

async function startProxy(target: string, refusalOf: (call: Call) => Refusal | undefined): Promise<NodeProxy> {
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = [parsed].flat();
    const refusals = new Map(
      calls.flatMap((call) => {
        const refusal = refusalOf(call);
        return refusal ? [[call, refusal] as const] : [];
      }),
    );
    const forwarded = calls.filter((call) => !refusals.has(call));
    const answers =
      forwarded.length === 0
        ? []
        : [
            await (
              await fetch(target, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify(forwarded),
              })
            ).json(),
          ].flat();
    const byId = new Map((answers as { id: unknown }[]).map((answer) => [answer.id, answer]));
    const out = calls.map((call) =>
      refusals.has(call) ? { jsonrpc: "2.0", id: call.id, error: refusals.get(call) } : byId.get(call.id),
    );
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(Array.isArray(parsed) ? out : out[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
