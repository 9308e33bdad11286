import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { zeroAddress } from "viem";
import type { Target } from "../../src/contract-suite/target.ts";
import { ApiError, apiError, ERRORS } from "../../src/core/errors.ts";
import { worldOf } from "../../src/msw/world-file.ts";
import { mockMint, MockWorld } from "../../src/msw/world.ts";
import { Pipeline, type PipelineDeps } from "../../src/pipeline/pipeline.ts";

// The world src/msw/index.ts reads (not imported from there: it loads MSW itself, seconds of every mutant's run).
const SNAPSHOTS = fileURLToPath(new URL("../../fixtures/snapshots", import.meta.url));

/** The default world's API keys: the mock mints for any key, so the target refuses the others as the simulator does. */
const WORLD_KEYS = new Set(
  (
    JSON.parse(readFileSync(join(SNAPSHOTS, "../default-world.json"), "utf8")) as {
      apiKeys: { key: string }[];
    }
  ).apiKeys.map(({ key }) => key),
);
const WORLD_ACCOUNTS: PipelineDeps["accounts"] = {
  byApiKey: (apiKey) =>
    WORLD_KEYS.has(apiKey) ? { apiKey, name: apiKey, walletKey: "0x", wallet: zeroAddress } : undefined,
};

/** An item of the default world with a history of 22 events of six kinds: several pages, a mint at the start. */
const KNOWN_ITEM = { collection: "0x470d7b2d4855bb6e80654c911fa410a717f77e0e", tokenId: 3, chainId: 56 };

export interface SnapshotTarget {
  url: string;
  /** The suite's target here, writes allowed (the mock mints nothing lasting: each start is the world afresh). */
  target: Target;
  close(): Promise<void>;
}

/**
 * A fast target the contract suite passes against, with no chain: the MSW handlers' answers (the default world's
 * response snapshots, answered as the simulator answers them, byte for byte) over a real HTTP server. The checks'
 * own tests run on it, and the seeded broken targets bend its answers.
 */
export async function startSnapshotTarget(): Promise<SnapshotTarget> {
  const world = new MockWorld(worldOf((file) => JSON.parse(readFileSync(join(SNAPSHOTS, file), "utf8")) as unknown));
  const pipeline = new Pipeline({
    chains: world,
    accounts: WORLD_ACCOUNTS,
    send: mockMint(world),
    draw: () => {
      throw apiError(ERRORS.NOT_FOUND, { what: "Image" });
    },
  });
  const server: Server = createServer(async (req, res) => {
    const { status, type, body } = await answered(pipeline, req);
    res.writeHead(status, { "content-type": type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    target: { baseUrl: url, ...KNOWN_ITEM, apiKey: "demo-studio-key", allowWrites: true },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The pipeline's answer to a request, its refusals written as the error exit writes them; a path not the API's is 404. */
async function answered(
  pipeline: Pipeline,
  req: IncomingMessage,
): Promise<{ status: number; type: string; body: string | Uint8Array }> {
  const url = new URL(req.url ?? "/", "http://target");
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const contentType = req.headers["content-type"] ?? "";
  try {
    const routed = pipeline.router.route(req.method ?? "GET", url.pathname);
    if (!routed || "allow" in routed) throw apiError(ERRORS.NOT_FOUND, { what: `Route ${req.method} ${url.pathname}` });
    const json = contentType.startsWith("application/json");
    const answer = await pipeline.answer(routed, {
      method: req.method ?? "GET",
      path: url.pathname,
      url: url.pathname + url.search,
      query: Object.fromEntries(url.searchParams),
      contentType,
      header: (name) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(", ") : value;
      },
      body: json ? parsedBody(text) : {},
      is: (types) => types.find((type) => contentType.startsWith(type)) ?? false,
      client: "",
      setHeader: () => undefined,
    });
    return { status: answer.status, type: answer.type, body: answer.body };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, type: "application/json; charset=utf-8", body: JSON.stringify(error.body) };
  }
}

function parsedBody(text: string): unknown {
  try {
    return text === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw apiError(ERRORS.INVALID_JSON, {}, { errors: [(error as Error).message] });
  }
}
