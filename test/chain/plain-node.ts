import { createServer, type Server } from "node:http";

// Nodes as testnets and providers are, made from a real anvil by a JSON-RPC proxy in front of
// it: a plain node answers every evm_*, hardhat_*, anvil_* and synchronous-send call as geth
// answers a method it does not have (-32601); a limited node refuses an eth_getLogs over more
// blocks than it allows, as providers do; a clashing node finds every nonce taken; a racing node
// loses the sends it is told to after taking them. Everything else is forwarded; anvil mines as it would.

const DEV_METHOD = /^(evm_|hardhat_|anvil_)|Sync$/;

type Call = { id?: unknown; method: string; params?: unknown[] };
type Refusal = { code: number; message: string };
type Answer = { result: unknown } | { error: Refusal };
/** How the proxy answers one call itself, once the calls before it are answered; undefined: anvil answers it. */
type Handler = (call: Call, forward: (calls: Call[]) => Promise<Answer[]>) => (() => Promise<Answer>) | undefined;

/** What a racing node does with a send it takes: drops it, or drops it and mines another writer's at its nonce. */
export type Race = "dropped" | "taken";

interface NodeProxy {
  url: string;
  close(): Promise<void>;
}

export function startPlainNode(target: string): Promise<NodeProxy> {
  return startProxy(
    target,
    refusing(({ method }) =>
      DEV_METHOD.test(method)
        ? { code: -32601, message: `the method ${method} does not exist/is not available` }
        : undefined,
    ),
  );
}

/** A node that answers eth_getLogs for at most `maxBlocks` blocks; `ranges` lists every eth_getLogs it was asked, refused or not. */
export async function startLimitedNode(
  target: string,
  maxBlocks: number,
): Promise<NodeProxy & { ranges: { blocks: number; refused: boolean }[] }> {
  const ranges: { blocks: number; refused: boolean }[] = [];
  const proxy = await startProxy(
    target,
    refusing(({ method, params }) => {
      if (method !== "eth_getLogs") return undefined;
      const { fromBlock, toBlock } = params![0] as { fromBlock: string; toBlock: string };
      const blocks = Number(BigInt(toBlock) - BigInt(fromBlock)) + 1;
      ranges.push({ blocks, refused: blocks > maxBlocks });
      return blocks > maxBlocks
        ? { code: -32602, message: `eth_getLogs is limited to a ${maxBlocks} block range` }
        : undefined;
    }),
  );
  return { ...proxy, ranges };
}

/** A node where every raw transaction finds its nonce already taken, as if another writer always sent first. */
export function startClashingNode(target: string): Promise<NodeProxy> {
  return startProxy(
    target,
    refusing(({ method }) =>
      method === "eth_sendRawTransaction" ? { code: -32003, message: "nonce too low" } : undefined,
    ),
  );
}

/**
 * A node that loses the next impersonated send (eth_sendTransaction) after answering its hash, once told to
 * (`loseNext`): as anvil does when two writers of one wallet send at once, it takes one whose nonce it is mining for
 * the other, then drops it as too low ("taken"); or its pool loses one and nobody takes the nonce ("dropped"). With
 * `afterMs`, the send waits unmined in the pool that long before it is lost. `lost` lists the hashes it lost.
 */
export async function startRacingNode(
  target: string,
): Promise<NodeProxy & { lost: string[]; loseNext(how: Race, afterMs?: number): void }> {
  const lost: string[] = [];
  let next: { how: Race; afterMs: number } | undefined;
  const proxy = await startProxy(target, (call, forward) => {
    const loss = call.method === "eth_sendTransaction" ? next : undefined;
    if (!loss) return undefined;
    next = undefined;
    const lose = async (hash: string) => {
      const [found] = await forward([{ method: "eth_getTransactionByHash", params: [hash] }]);
      const { from, nonce } = (found as { result: { from: string; nonce: string } }).result;
      await forward([{ method: "anvil_dropTransaction", params: [hash] }]);
      if (loss.how === "taken") {
        const other = { from, to: from, nonce, gas: "0x5208", maxFeePerGas: "0x174876e800" };
        await forward([{ method: "eth_sendTransaction", params: [other] }]);
      }
      lost.push(hash);
    };
    return async () => {
      // The pool holds it, unmined, until it is lost.
      await forward([{ method: "evm_setAutomine", params: [false] }]);
      const [answer] = await forward([call]);
      const automine = () => forward([{ method: "evm_setAutomine", params: [true] }, { method: "evm_mine" }]);
      if (!("result" in answer!)) await automine();
      else if (loss.afterMs === 0) await lose(answer.result as string).then(automine);
      else setTimeout(() => void lose(answer.result as string).then(automine), loss.afterMs);
      return answer!;
    };
  });
  return { ...proxy, lost, loseNext: (how, afterMs = 0) => void (next = { how, afterMs }) };
}

/** A handler that refuses the calls `refusalOf` names, and forwards the rest. */
function refusing(refusalOf: (call: Call) => Refusal | undefined): Handler {
  return (call) => {
    const error = refusalOf(call);
    return error && (async () => ({ error }));
  };
}

async function startProxy(target: string, handle: Handler): Promise<NodeProxy> {
  let ids = 0;
  const forward = async (calls: Call[]): Promise<Answer[]> => {
    const sent = calls.map((call) => ({ jsonrpc: "2.0", ...call, id: `proxy-${(ids += 1)}` }));
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sent),
    });
    const byId = new Map(((await response.json()) as (Answer & { id: string })[]).map((answer) => [answer.id, answer]));
    return sent.map((call) => byId.get(call.id)!);
  };
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = [parsed].flat();
    // Runs of calls anvil answers go to it as one batch; a call the handler answers waits for those before it.
    const answers: Answer[] = [];
    let run: Call[] = [];
    for (const call of calls) {
      const handled = handle(call, forward);
      if (!handled) {
        run.push(call);
        continue;
      }
      answers.push(...(run.length ? await forward(run) : []), await handled());
      run = [];
    }
    if (run.length) answers.push(...(await forward(run)));
    const out = calls.map((call, i) => {
      const answer = answers[i]!;
      return "error" in answer
        ? { jsonrpc: "2.0", id: call.id, error: answer.error }
        : { jsonrpc: "2.0", id: call.id, result: answer.result };
    });
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
