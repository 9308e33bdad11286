import { request, type IncomingMessage, type Server } from "node:http";
import { jsonHttpServer } from "../../src/http/error-exit.ts";
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

/**
 * A real HTTP server in front of a target (the simulator, or test/contract-suite/snapshot-target.ts) that answers
 * what it answers, bent by `breakage` (the seeded defects are in breakages.ts).
 * What its own HTTP server refuses (headers too large, no Host, an odd Expect) it answers as the
 * simulator does, so the only defect is the one seeded.
 */
export async function startBrokenTarget(upstream: string, breakage: Breakage): Promise<BrokenTarget> {
  const requests: string[] = [];
  // Each broken target reaches the upstream from a loopback address of its own, so the unknown API keys its fuzz run
  // sends count against it alone (the simulator answers 429 past 100 a minute from one address).
  const localAddress = `127.0.0.${(targetsStarted = (targetsStarted % 250) + 1) + 1}`;
  const server: Server = jsonHttpServer(
    async (req, res) => {
      try {
        const incoming = new URL(req.url ?? "/", upstream);
        requests.push(`${req.method} ${incoming.pathname}${incoming.search}`);
        const forwarded = breakage.rewriteUrl ? await breakage.rewriteUrl(new URL(incoming)) : incoming;
        const body = await readBody(req);
        const answer = await forward(forwarded, localAddress, {
          method: req.method ?? "GET",
          headers: req.headers["content-type"] ? { "content-type": req.headers["content-type"] } : {},
          body,
        });
        let text = answer.text;
        const json = text ? JSON.parse(text) : undefined;
        if (breakage.rewriteBody && json !== undefined)
          text = JSON.stringify(await breakage.rewriteBody(incoming, answer.status, json, upstream));
        if (breakage.rewriteText) text = breakage.rewriteText(incoming, answer.status, text);
        const status = breakage.rewriteStatus
          ? breakage.rewriteStatus(incoming, answer.status, req.headers)
          : answer.status;
        res.writeHead(status, { "content-type": answer.contentType ?? "application/json" });
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

let targetsStarted = 0;

/** One request to the upstream, sent from `localAddress`. */
function forward(
  url: URL,
  localAddress: string,
  { method, headers, body }: { method: string; headers: Record<string, string>; body: Buffer },
): Promise<{ status: number; contentType: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers, localAddress }, (answer) => {
      answer.setEncoding("utf8");
      let text = "";
      answer.on("data", (chunk: string) => (text += chunk));
      answer.on("end", () =>
        resolve({ status: answer.statusCode!, contentType: answer.headers["content-type"], text }),
      );
      answer.on("error", reject);
    });
    sent.on("error", reject);
    sent.end(body.length ? body : undefined);
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
