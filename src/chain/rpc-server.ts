import { createServer, type Server } from "node:http";
import { answerClientErrors } from "../http/client-errors.ts";
import { allowedOriginOf, refusalOf, type RpcPolicy } from "./rpc-guard.ts";
import type { SimChain } from "./sim-chain.ts";

interface RpcCall {
  id: number | string | null;
  method: string;
  params: unknown[];
}

type RpcReply = { jsonrpc: "2.0"; id: RpcCall["id"] } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } });

/** Larger bodies are refused before they are read whole; a batch of a few hundred calls fits. */
const MAX_BODY_BYTES = 1_000_000;
/** As geth: at most this many calls in one batch, and an answer of at most this many bytes. */
export const MAX_BATCH_CALLS = 1_000;
export const MAX_ANSWER_BYTES = 25_000_000;

const failure = (id: RpcCall["id"], code: number, message: string): RpcReply => ({ jsonrpc: "2.0", id, error: { code, message } });

/**
 * Serves an in-process chain as HTTP JSON-RPC, so wallets and dApps see the
 * same chain the simulator writes to. Every call goes through the chain's
 * wrapper, which keeps its index current when a call changes the chain.
 */
export async function serveRpc(chain: Pick<SimChain, "request">, host: string, port: number, policy: RpcPolicy): Promise<Server> {
  async function answer(call: unknown): Promise<RpcReply> {
    const valid = asCall(call);
    if (!valid) return failure(idOf(call), -32600, "Invalid Request: expected an object with a string 'method'");
    try {
      const result = await chain.request(valid.method, valid.params);
      return { jsonrpc: "2.0", id: valid.id, result };
    } catch (error) {
      const { code = -32603, message = String(error), data } = error as { code?: number; message?: string; data?: unknown };
      return { jsonrpc: "2.0", id: valid.id, error: { code, message, data } };
    }
  }

  async function reply(text: string): Promise<RpcReply | RpcReply[]> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return failure(null, -32700, "Parse error");
    }
    if (!Array.isArray(body)) return answer(body);
    if (body.length === 0) return failure(null, -32600, "Invalid Request: empty batch");
    if (body.length > MAX_BATCH_CALLS) return failure(null, -32600, `Invalid Request: a batch of ${body.length} calls is over the limit of ${MAX_BATCH_CALLS}`);
    return Promise.all(body.map(answer));
  }

  const server = createServer((req, res) => {
    const origin = allowedOriginOf(req, policy);
    if (origin) res.setHeader("access-control-allow-origin", origin).setHeader("access-control-allow-headers", "content-type, authorization");
    res.setHeader("vary", "Origin");
    if (req.method === "OPTIONS" && origin) return void res.writeHead(204).end();
    const refused = refusalOf(req, policy);
    if (refused) return void res.writeHead(refused.status, { "content-type": "application/json", connection: "close" }).end(JSON.stringify(failure(null, -32600, refused.message)));
    if (req.method !== "POST") return void res.writeHead(405, { "content-type": "application/json", allow: "POST" }).end(JSON.stringify(failure(null, -32600, "Invalid Request: send JSON-RPC with POST")));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      res.writeHead(413, { "content-type": "application/json", connection: "close" }).end(JSON.stringify(failure(null, -32600, `Invalid Request: the body is over ${MAX_BODY_BYTES} bytes`)));
      req.destroy();
    });
    req.on("end", () => {
      reply(Buffer.concat(chunks).toString("utf8"))
        .catch((error: unknown) => failure(null, -32603, `Internal error: ${(error as Error).message}`))
        .then((answered) => {
          const text = JSON.stringify(answered, bigintsAsHex);
          const sent = Buffer.byteLength(text) <= MAX_ANSWER_BYTES ? text : JSON.stringify(failure(null, -32603, `the answer is over ${MAX_ANSWER_BYTES} bytes; send fewer calls per batch`));
          res.writeHead(200, { "content-type": "application/json" }).end(sent);
        });
    });
  });
  answerClientErrors(server, (status, message) => JSON.stringify(failure(null, status === 431 ? -32600 : -32700, message)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}

function asCall(value: unknown): RpcCall | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { method, params = [] } = value as Record<string, unknown>;
  if (typeof method !== "string" || !Array.isArray(params)) return undefined;
  return { id: idOf(value), method, params };
}

function idOf(value: unknown): RpcCall["id"] {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === "number" || typeof id === "string" ? id : null;
}

function bigintsAsHex(_key: string, value: unknown) {
  return typeof value === "bigint" ? `0x${value.toString(16)}` : value;
}
