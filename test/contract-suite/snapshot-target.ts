import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Target } from "../../src/contract-suite/target.ts";
import { apiError, ERRORS } from "../../src/core/errors.ts";
import { answer } from "../../src/msw/answers.ts";
import { worldFromSnapshots } from "../../src/msw/data.ts";

// The files src/msw/index.ts reads (not imported from there: it loads MSW itself, seconds of every mutant's run).
const SNAPSHOTS = fileURLToPath(new URL("../../fixtures/snapshots", import.meta.url));

/** The default world's API keys: the mock mints for any key, so the target refuses the others as the simulator does. */
const WORLD_KEYS = new Set(
  (
    JSON.parse(readFileSync(join(SNAPSHOTS, "../default-world.json"), "utf8")) as {
      apiKeys: { key: string }[];
    }
  ).apiKeys.map(({ key }) => key),
);

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
  const world = worldFromSnapshots((file) =>
    file.endsWith(".json")
      ? (JSON.parse(readFileSync(join(SNAPSHOTS, file), "utf8")) as unknown)
      : new Uint8Array(readFileSync(join(SNAPSHOTS, file))),
  );
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://target");
    const apiKey = url.searchParams.get("apiKey");
    const answered =
      req.method === "POST" && apiKey && !WORLD_KEYS.has(apiKey)
        ? { status: 401, body: apiError(ERRORS.UNKNOWN_API_KEY).body }
        : await answer(world, {
            method: req.method ?? "GET",
            path: url.pathname,
            search: url.search,
            contentType: req.headers["content-type"] ?? null,
            body: async () => Buffer.concat(chunks).toString("utf8"),
          });
    const { status, body } = answered ?? apiErrorAnswer(`Route ${req.method} ${url.pathname}`);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
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

function apiErrorAnswer(what: string): { status: number; body: unknown } {
  const error = apiError(ERRORS.NOT_FOUND, { what });
  return { status: error.status, body: error.body };
}
