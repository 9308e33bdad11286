import type { Hex } from "viem";
import { apiError, ERRORS } from "../../core/errors.ts";

/** One JSON-RPC call, as sent in a batch. */
export interface RpcCall {
  method: string;
  params?: unknown[];
}

/** One answer of a batch: its result, or the error the node gave for that call alone. */
export type RpcOutcome = { result: unknown } | { error: NodeRpcError };

/** The node answered the call with a JSON-RPC error (a revert carries its data, which chainErrorOf decodes). */
export class NodeRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(method: string, error: { code?: number; message?: string; data?: unknown }) {
    super(`${method}: ${error.message ?? "error"}`);
    this.name = "NodeRpcError";
    this.code = error.code ?? 0;
    this.data = error.data;
  }
}

/** The node did not answer at all (refused, reset, timed out, or not JSON-RPC): it is down, not wrong (503). */
function unreachable(where: string, cause: unknown) {
  const why = String((cause as Error)?.cause ?? (cause as Error)?.message ?? cause).split("\n")[0];
  return apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: [`the node at ${where} does not answer: ${why}`] });
}

/** A node's URL as it may be printed: scheme, host and port (a path or credentials may hold a provider's key). */
export function shownUrl(url: string): string {
  const { origin, pathname } = new URL(url);
  return pathname === "/" || pathname === "" ? origin : `${origin}/…`;
}

// A node that does not answer within this is taken as down (a poll asks again later).
const TIMEOUT_MS = 15_000;

/**
 * JSON-RPC over HTTP to a node the simulator did not start, with batches (several calls in one
 * round trip, answered in order by anvil and Hardhat's node). Counts what it sends.
 */
export class NodeRpc {
  readonly url: string;
  readonly shown: string;
  #id = 0;

  constructor(url: string) {
    this.url = url;
    this.shown = shownUrl(url);
  }

  async request(method: string, params: unknown[] = []): Promise<unknown> {
    const [outcome] = await this.batch([{ method, params }]);
    if ("error" in outcome!) throw outcome.error;
    return outcome!.result;
  }

  /** The calls in one request; each answer in the calls' order. */
  async batch(calls: RpcCall[]): Promise<RpcOutcome[]> {
    const first = this.#id + 1;
    const body = calls.map(({ method, params = [] }) => ({ jsonrpc: "2.0", id: ++this.#id, method, params }));
    let answers: unknown;
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body.length === 1 ? body[0] : body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      answers = await response.json();
    } catch (error) {
      throw unreachable(this.shown, error);
    }
    const list = (Array.isArray(answers) ? answers : [answers]) as {
      id?: number;
      result?: unknown;
      error?: { code?: number; message?: string; data?: unknown };
    }[];
    const byId = new Map(list.map((answer) => [answer.id, answer]));
    return calls.map(({ method }, i) => {
      const answer = byId.get(first + i) ?? (list.length === 1 && calls.length === 1 ? list[0] : undefined);
      if (!answer) throw unreachable(this.shown, new Error(`no answer to ${method}`));
      return answer.error ? { error: new NodeRpcError(method, answer.error) } : { result: answer.result };
    });
  }

  /** An EIP-1193 view (what viem's `custom` transport and the simulator's writers call). */
  readonly provider = {
    request: ({ method, params }: { method: string; params?: unknown[] }) => this.request(method, params ?? []),
  };
}

export type RawReceipt = {
  transactionHash: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  status: Hex;
  logs: unknown[];
  contractAddress: Hex | null;
};
