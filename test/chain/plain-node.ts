import { createServer, type Server } from "node:http";

// A node without dev methods, as a testnet's is: a JSON-RPC proxy in front of a real anvil that
// answers every evm_*, hardhat_*, anvil_* and synchronous-send call as geth answers a method it
// does not have (-32601), and forwards the rest. Blocks are mined by anvil as it would anyway.

const DEV_METHOD = /^(evm_|hardhat_|anvil_)|Sync$/;

type Call = { id?: unknown; method: string };

export async function startPlainNode(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = [parsed].flat();
    const forwarded = calls.filter((call) => !DEV_METHOD.test(call.method));
    const answers = forwarded.length === 0 ? [] : [(await (await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(forwarded) })).json())].flat();
    const byId = new Map((answers as { id: unknown }[]).map((answer) => [answer.id, answer]));
    const out = calls.map((call) =>
      DEV_METHOD.test(call.method)
        ? { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } }
        : byId.get(call.id),
    );
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? out : out[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
