import { afterAll, beforeAll, expect, it } from "vitest";
import { apiError, ERRORS } from "../../src/core/errors.ts";
import { answerBody, MAX_ANSWER_BYTES } from "../../src/http/rpc-server.ts";
import { killSimulatorProcesses, startSimulatorProcess, type SimulatorProcess } from "../processes.ts";

// A batch small to send but huge to answer (eth_calls whose code returns 2 MB each) must not take
// the simulator down nor its memory up: the calls run one by one, their answers are counted as
// they come, and past the limit the rest are answered with geth's "response too large" error.

let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(["--fixture", "demo", "--port", "0", "--rpc-port", "0"]);
});
afterAll(killSimulatorProcesses);

const TWO_MB = 2 * 1024 * 1024;
// PUSH3 0x200000, PUSH1 0, RETURN: returns 2 MB of zeros.
const RETURNS_TWO_MB = `0x62${TWO_MB.toString(16).padStart(6, "0")}6000f3`;
const TARGET = `0x${"ab".repeat(20)}`;

function bigCall(id: number) {
  return {
    jsonrpc: "2.0",
    id,
    method: "eth_call",
    params: [{ to: TARGET, data: "0x" }, "latest", { [TARGET]: { code: RETURNS_TWO_MB } }],
  };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any; bytes: number }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

it("a 31 KB batch of 140 calls answering 2 MB each: the limit error, and the simulator keeps serving", async () => {
  const rpc = sim.rpcUrls.get(56)!;
  const batch = Array.from({ length: 140 }, (_, i) => bigCall(i));
  expect(JSON.stringify(batch).length).toBeLessThan(40_000);

  const [answer, read] = await Promise.all([post(rpc, batch), fetch(`${sim.base}/api/v2/collection?perPage=5`)]);
  expect(read.status).toBe(200);
  expect(answer.status).toBe(200);
  expect(answer.bytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 140 * 200);
  const replies = answer.body as { id: number; result?: string; error?: { code: number; message: string } }[];
  expect(replies.map((reply) => reply.id)).toEqual(batch.map((call) => call.id));
  const firstRefused = replies.findIndex((reply) => reply.error);
  expect(firstRefused).toBeGreaterThan(0);
  for (const reply of replies.slice(0, firstRefused)) expect(reply.result).toHaveLength(2 + 2 * TWO_MB);
  for (const reply of replies.slice(firstRefused))
    expect(reply.error).toMatchObject({ code: -32003, message: expect.stringMatching(/^response too large/) });

  expect(sim.child.exitCode).toBeNull();
  expect((await fetch(`${sim.base}/api/v2/collection?perPage=5`)).status).toBe(200);
  expect((await post(rpc, { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] })).body).toEqual({
    jsonrpc: "2.0",
    id: 1,
    result: "0x38",
  });
});

it("one call whose answer alone is over the limit: the limit error with its id", async () => {
  const rpc = sim.rpcUrls.get(56)!;
  // A trace of a constructor that loops until its 1.5M gas run out: 4 bytes asked, about 30 MB to answer.
  const loop = { data: "0x5b600056", gas: "0x180000" };
  const answer = await post(rpc, { jsonrpc: "2.0", id: 9, method: "debug_traceCall", params: [loop, "latest"] });
  expect(answer.body).toMatchObject({
    jsonrpc: "2.0",
    id: 9,
    error: { code: -32003, message: expect.stringMatching(/^response too large/) },
  });
  expect(sim.child.exitCode).toBeNull();
  // The same call with less gas is answered in full.
  const small = await post(rpc, {
    jsonrpc: "2.0",
    id: 10,
    method: "debug_traceCall",
    params: [{ ...loop, gas: "0x10000" }, "latest"],
  });
  expect(small.body.result.structLogs.length).toBeGreaterThan(1000);
});

it("an error of the catalog (a node behind the chain that does not answer): a server error, its lines as data", async () => {
  const down = apiError(ERRORS.CHAIN_UNAVAILABLE, {}, { errors: ["the node at http://127.0.0.1:9 does not answer"] });
  const call = { jsonrpc: "2.0", id: 4, method: "eth_blockNumber", params: [] };
  const answer = await answerBody(JSON.stringify(call), () => Promise.reject(down));
  expect(JSON.parse(answer)).toEqual({
    jsonrpc: "2.0",
    id: 4,
    error: {
      code: -32000,
      message: "A chain did not answer as it should",
      data: "the node at http://127.0.0.1:9 does not answer",
    },
  });
});
