import type { IncomingMessage, Server } from "node:http";
import { jsonHttpServer } from "../../src/http/client-errors.ts";
import type { AddressInfo } from "node:net";

/** How a broken deployment bends one exchange: the URL it forwards, and the JSON it answers. */
export interface Breakage {
  rewriteUrl?(url: URL): URL | Promise<URL>;
  rewriteBody?(url: URL, status: number, body: unknown, upstream: string): unknown | Promise<unknown>;
  /** Answer this text instead of JSON. */
  rewriteText?(url: URL, status: number, text: string): string;
  /** Answer this status instead (the request's headers at hand). */
  rewriteStatus?(url: URL, status: number, headers: IncomingMessage["headers"]): number;
}

export interface BrokenTarget {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

const isList = (url: URL) => url.pathname === "/api/v2/collection";
const isHistory = (url: URL) => url.pathname.startsWith("/api/v2/item/events/");

/** The seeded defects of the broken targets: what the contract suite and its fuzz mode must each find. */
export const BREAKAGES = {
  /** The collection list drops a field its schema requires. */
  listWithoutHolders: {
    rewriteBody: (url, status, body) => {
      if (!isList(url) || status !== 200) return body;
      const list = body as { collections: Record<string, unknown>[] };
      return { ...list, collections: list.collections.map(({ holders: _holders, ...rest }) => rest) };
    },
  },
  /** An item's history answers chainId as a string. */
  chainIdAsString: {
    rewriteBody: (url, status, body) => {
      if (!isHistory(url) || status !== 200) return body;
      const page = body as { events: { chainId: number }[] };
      return { events: page.events.map((event) => ({ ...event, chainId: String(event.chainId) })) };
    },
  },
  /** Paged reads default perPage to 10 instead of 24. */
  perPageDefaultTen: {
    rewriteUrl: (url) => {
      if ((isList(url) || isHistory(url)) && !url.searchParams.has("perPage")) url.searchParams.set("perPage", "10");
      return url;
    },
  },
  /** Page n of the list starts one record early: it repeats the last of page n - 1 and the last record of all is never shown. */
  overlappingPages: {
    rewriteBody: async (url, status, body, upstream) => {
      const page = Number(url.searchParams.get("page") ?? 1);
      const perPage = Number(url.searchParams.get("perPage") ?? 24);
      if (!isList(url) || status !== 200 || page < 2) return body;
      const wide = new URL(url.pathname, upstream);
      url.searchParams.forEach((value, name) => wide.searchParams.set(name, value));
      wide.searchParams.set("page", "1");
      wide.searchParams.set("perPage", String(Math.min(100, page * perPage)));
      const all = (await (await fetch(wide)).json()) as { collections: unknown[]; count: number };
      return { ...all, collections: all.collections.slice((page - 1) * perPage - 1, page * perPage - 1) };
    },
  },
  /** An item's history comes oldest first. */
  historyOldestFirst: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200 ? { events: [...(body as { events: unknown[] }).events].reverse() } : body,
  },
  /** Errors keep their status but answer plain text. */
  plainTextErrors: { rewriteText: (_url, status, text) => (status >= 400 ? "Bad Request" : text) },
  /** A mint body in a content-encoding it is not in answers 500. */
  serverErrorOnCoding: {
    rewriteStatus: (url, status, headers) =>
      url.pathname === "/api/v2/item/new" && headers["content-encoding"] ? 500 : status,
  },
  /** Numbers in hexadecimal are read as numbers (perPage=0x10 is 16). */
  hexNumbersAccepted: {
    rewriteUrl: (url) => {
      for (const [name, value] of url.searchParams)
        if (/^0x[0-9a-f]+$/i.test(value) && name !== "apiKey") url.searchParams.set(name, String(Number(value)));
      return url;
    },
  },
  /** A missing collection answers 410, which the interface does not document. */
  undocumentedStatus: {
    rewriteStatus: (url, status) => (url.pathname.startsWith("/api/v2/collection/") && status === 404 ? 410 : status),
  },
} satisfies Record<string, Breakage>;

/**
 * A real HTTP server in front of the simulator that answers what it answers, bent by `breakage`.
 * What its own HTTP server refuses (headers too large, no Host, an odd Expect) it answers as the
 * simulator does, so the only defect is the one seeded.
 */
export async function startBrokenTarget(upstream: string, breakage: Breakage): Promise<BrokenTarget> {
  const requests: string[] = [];
  const server: Server = jsonHttpServer(
    async (req, res) => {
      try {
        const incoming = new URL(req.url ?? "/", upstream);
        requests.push(`${req.method} ${incoming.pathname}${incoming.search}`);
        const forwarded = breakage.rewriteUrl ? await breakage.rewriteUrl(new URL(incoming)) : incoming;
        const body = await readBody(req);
        const answer = await fetch(forwarded, {
          method: req.method,
          headers: req.headers["content-type"] ? { "content-type": req.headers["content-type"] } : {},
          body: body.length ? new Uint8Array(body) : undefined,
        });
        let text = await answer.text();
        const json = text ? JSON.parse(text) : undefined;
        if (breakage.rewriteBody && json !== undefined)
          text = JSON.stringify(await breakage.rewriteBody(incoming, answer.status, json, upstream));
        if (breakage.rewriteText) text = breakage.rewriteText(incoming, answer.status, text);
        const status = breakage.rewriteStatus
          ? breakage.rewriteStatus(incoming, answer.status, req.headers)
          : answer.status;
        res.writeHead(status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(text);
      } catch (error) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`proxy failed: ${(error as Error).message}`);
      }
    },
    (error) => JSON.stringify(error.body),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
