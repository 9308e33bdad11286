import type { Server } from "node:http";
import { ERRORS, type ApiError } from "../core/errors.ts";
import { jsonHttpServer } from "./error-exit.ts";
import { answerBody, failed } from "./rpc-answers.ts";
import type { AccessPolicy } from "../access/policy.ts";
import type { SimChain } from "../chain/sim-chain.ts";

export { MAX_ANSWER_BYTES, MAX_BATCH_CALLS } from "./rpc-answers.ts";

/** Larger bodies are refused before they are read whole; a batch of a few hundred calls fits. */
const MAX_BODY_BYTES = 1_000_000;

/**
 * Serves an in-process chain as HTTP JSON-RPC, so wallets and dApps see the
 * same chain the simulator writes to. Every call goes through the chain's
 * wrapper, which keeps its index current when a call changes the chain.
 */
export async function serveRpc(
  chain: Pick<SimChain, "request">,
  host: string,
  port: number,
  access: AccessPolicy,
): Promise<Server> {
  const run = (method: string, params: unknown[]) => chain.request(method, params);
  const rpcError = (error: ApiError) =>
    failed(null, error.descriptor === ERRORS.NOT_HTTP ? -32700 : -32600, error.message);
  const server = jsonHttpServer((req, res) => {
    const origin = access.allowedOrigin("rpc", req.headers.origin);
    if (origin)
      res
        .setHeader("access-control-allow-origin", origin)
        .setHeader("access-control-allow-headers", "content-type, authorization");
    res.setHeader("vary", "Origin");
    if (req.method === "OPTIONS" && origin) return void res.writeHead(204).end();
    const refused = access.refusal({
      surface: "rpc",
      method: req.method ?? "",
      path: req.url ?? "/",
      host: req.headers.host ?? "",
      origin: req.headers.origin,
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"],
      hasBody: true,
    });
    if (refused)
      return void res
        .writeHead(refused.status, { "content-type": "application/json", connection: "close" })
        .end(failed(null, -32600, `${refused.message}: ${refused.errors[0]}`));
    if (req.method !== "POST")
      return void res
        .writeHead(405, { "content-type": "application/json", allow: "POST" })
        .end(failed(null, -32600, "Invalid Request: send JSON-RPC with POST"));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      res
        .writeHead(413, { "content-type": "application/json", connection: "close" })
        .end(failed(null, -32600, `Invalid Request: the body is over ${MAX_BODY_BYTES} bytes`));
      req.destroy();
    });
    req.on("end", () => {
      answerBody(Buffer.concat(chunks).toString("utf8"), run)
        .catch((error: unknown) =>
          failed(null, -32603, `Internal error: ${(error as Error)?.message ?? String(error)}`),
        )
        .then((text) => res.writeHead(200, { "content-type": "application/json" }).end(text));
    });
  }, rpcError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}
