import { createServer, type Server } from "node:http";
import type { EthereumProvider } from "hardhat/types/providers";

interface RpcRequest {
  jsonrpc: "2.0";
  id: number | string | null;
  method: string;
  params?: unknown[];
}

/**
 * Serves an in-process chain as HTTP JSON-RPC, so wallets and dApps see the
 * same chain the simulator writes to. `onRequest` runs after each call, so the
 * simulator can notice blocks mined from outside.
 */
export async function serveRpc(
  provider: EthereumProvider,
  host: string,
  port: number,
  onRequest: (method: string) => void,
): Promise<Server> {
  async function answer(call: RpcRequest) {
    try {
      const result = await provider.request({ method: call.method, params: call.params ?? [] });
      return { jsonrpc: "2.0", id: call.id ?? null, result };
    } catch (error) {
      const { code = -32603, message = String(error), data } = error as { code?: number; message?: string; data?: unknown };
      return { jsonrpc: "2.0", id: call.id ?? null, error: { code, message, data } };
    } finally {
      onRequest(call.method);
    }
  }

  const server = createServer((req, res) => {
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-allow-headers", "content-type");
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    if (req.method !== "POST") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      let body: RpcRequest | RpcRequest[];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        const parseError = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(parseError));
      }
      const reply = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply, bigintsAsHex));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}

function bigintsAsHex(_key: string, value: unknown) {
  return typeof value === "bigint" ? `0x${value.toString(16)}` : value;
}
