import type { Server } from "node:http";
import { ERRORS, ApiError } from "../core/errors.ts";
import { jsonHttpServer } from "./error-exit.ts";
import { accessRequestOf, type AccessPolicy } from "../access/policy.ts";
import type { SimChain } from "../chain/sim-chain.ts";

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
    // A request refused before any call is read: an Invalid Request error without an id.
    const invalid = (status: number, headers: Record<string, string>, message: string) =>
      void res.writeHead(status, { "content-type": "application/json", ...headers }).end(failed(null, -32600, message));
    const refused = access.refusal(accessRequestOf("rpc", req, req.url ?? "/"));
    if (refused) return invalid(refused.status, { connection: "close" }, `${refused.message}: ${refused.errors[0]}`);
    if (req.method !== "POST") return invalid(405, { allow: "POST" }, "Invalid Request: send JSON-RPC with POST");
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      invalid(413, { connection: "close" }, `Invalid Request: the body is over ${MAX_BODY_BYTES} bytes`);
      req.destroy();
    });
    req.on("end", () => {
      answerBody(Buffer.concat(chunks).toString("utf8"), (method, params) => chain.request(method, params))
        .catch((error: unknown) =>
          failed(null, -32603, `Internal error: ${(error as Error)?.message ?? String(error)}`),
        )
        .then((text) => res.writeHead(200, { "content-type": "application/json" }).end(text));
    });
  }, rpcError);
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return server;
}

type RpcId = number | string | null;
type RpcError = { code: number; message: string; data?: unknown };
type RpcReply = { jsonrpc: "2.0"; id: RpcId } & ({ result: unknown } | { error: RpcError });

/** Runs one call against the chain. */
export type RunCall = (method: string, params: unknown[]) => Promise<unknown>;

/** As geth: at most this many calls in one batch, and an answer of at most this many bytes. */
export const MAX_BATCH_CALLS = 1_000;
export const MAX_ANSWER_BYTES = 25_000_000;
/** geth's code and message for an answer over its size limit. */
const TOO_LARGE = -32003;

const failure = (id: RpcId, code: number, message: string, data?: unknown): RpcReply => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, data },
});

/** A JSON-RPC error reply, written out. */
export const failed = (id: RpcId, code: number, message: string): string => JSON.stringify(failure(id, code, message));

/**
 * The answer to a JSON-RPC body, serialised. A batch runs one call at a time, as geth does,
 * adding up the size of each answer as it comes: once past `limit` bytes no further call runs,
 * and the call that passed it and those left are answered geth's "response too large". So a
 * small body cannot make a huge answer (nor hold many large results at once), and nothing here
 * throws: a result that cannot be serialised is answered as an error too.
 */
export async function answerBody(text: string, run: RunCall, limit = MAX_ANSWER_BYTES): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return failed(null, -32700, "Parse error");
  }
  if (!Array.isArray(body)) return serialised(await answer(body, run), limit);
  if (body.length === 0) return failed(null, -32600, "Invalid Request: empty batch");
  const overLimit = `a batch of ${body.length} calls is over the limit of ${MAX_BATCH_CALLS}`;
  if (body.length > MAX_BATCH_CALLS) return failed(null, -32600, `Invalid Request: ${overLimit}`);
  const answers: string[] = [];
  let bytes = 2;
  for (const call of body) {
    const runs = bytes <= limit;
    const one = runs ? serialised(await answer(call, run), limit) : "";
    bytes += Buffer.byteLength(one) + 1;
    const why = runs
      ? `this call ran, but its result would take the batch's answer past ${limit} bytes`
      : `not run, the batch's answer already passed ${limit} bytes; send fewer calls per batch`;
    answers.push(bytes > limit ? failed(idOf(call), TOO_LARGE, `response too large: ${why}`) : one);
  }
  return `[${answers.join(",")}]`;
}

async function answer(call: unknown, run: RunCall): Promise<RpcReply> {
  const valid = asCall(call);
  if (!valid) return failure(idOf(call), -32600, "Invalid Request: expected an object with a string 'method'");
  try {
    return { jsonrpc: "2.0", id: valid.id, result: await run(valid.method, valid.params) };
  } catch (error) {
    // An error of the catalog (the journal refused the call, the node behind the chain does not answer): a server
    // error, told as the API tells it, its lines as data; nothing changed.
    if (error instanceof ApiError) return failure(valid.id, -32000, error.message, error.errors.join("\n"));
    const { code = -32603, message = String(error), data } = (error ?? {}) as Partial<RpcError>;
    return failure(valid.id, code, message, data);
  }
}

/**
 * One reply as JSON, or the "response too large" error with its id when it would pass `limit` bytes (or cannot be
 * written at all).
 */
function serialised(reply: RpcReply, limit: number): string {
  const tooLarge = () => failed(reply.id, TOO_LARGE, `response too large: the answer would pass ${limit} bytes`);
  // Measured before it is written out: a result far over the limit never becomes a string.
  if (jsonSizeOver(reply, limit)) return tooLarge();
  try {
    const text = JSON.stringify(reply, bigintsAsHex);
    return Buffer.byteLength(text) > limit ? tooLarge() : text;
  } catch (error) {
    const why = `Internal error: the answer cannot be written as JSON (${(error as Error).message})`;
    return error instanceof RangeError ? tooLarge() : failed(reply.id, -32603, why);
  }
}

/**
 * Whether `value` written as JSON would surely take more than `limit` characters (counting strings and structure,
 * stopping early).
 */
function jsonSizeOver(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "string") size += next.length + 2;
    else if (Array.isArray(next)) {
      size += next.length + 1;
      for (const item of next) stack.push(item);
    } else if (typeof next === "object" && next !== null) {
      for (const [key, field] of Object.entries(next)) {
        size += key.length + 4;
        stack.push(field);
      }
    } else size += 8;
    if (size > limit) return true;
  }
  return false;
}

/** One JSON-RPC call, as a client sent it. */
function asCall(value: unknown): { id: RpcId; method: string; params: unknown[] } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { method, params = [] } = value as Record<string, unknown>;
  if (typeof method !== "string" || !Array.isArray(params)) return undefined;
  return { id: idOf(value), method, params };
}

function idOf(value: unknown): RpcId {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === "number" || typeof id === "string" ? id : null;
}

function bigintsAsHex(_key: string, value: unknown) {
  return typeof value === "bigint" ? `0x${value.toString(16)}` : value;
}
