import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// Small upstreams the import's tests read from: real HTTP servers on loopback.

const ORIGINAL = JSON.parse(readFileSync(new URL("./fixtures/item-events.original.json", import.meta.url), "utf8"));

export type Handler = (req: IncomingMessage, res: ServerResponse, base: string) => void;

export async function upstream(handler: Handler): Promise<{ base: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res, base);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, server, hits: () => hits };
}

export const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

// The original's item: token 9 of 0xdb00… on chain 56, as its documented history answers it.
export const ADDRESS = "0xdb0047cb1dfc44696f6e9868ef6bb40000280b05";
export function originalService(req: IncomingMessage, res: ServerResponse, base: string): void {
  const url = new URL(req.url!, base);
  const collection = {
    address: ADDRESS,
    name: "Original",
    description: "",
    genre: "Art",
    image: "",
    imageHash: "",
    ownerAddress: "0x7a6d17c77fe350011596572d73d332d6b0794f06",
    slug: "original",
    uri: `${base}/meta`,
    website: "",
    mintDate: "2023-01-01T09:00:00.000Z",
    chainId: 56,
    holders: 1,
    volume_1d: 0,
    volume_1w: 0,
    volume_30d: 0,
    volume_all: 0,
    imageUrl: "",
  };
  if (url.pathname === "/api/v2/collection") return json(res, 200, { collections: [collection], count: 1 });
  if (url.pathname === `/api/v2/collection/${ADDRESS}`) return json(res, 200, { collection });
  if (url.pathname.startsWith("/api/v2/collection/")) return json(res, 404, { error: "NOT_FOUND" });
  if (url.pathname === `/api/v2/item/events/${ADDRESS}/9`)
    return json(res, 200, url.searchParams.get("page") === "1" ? ORIGINAL : { events: [] });
  if (url.pathname === "/meta/9") return json(res, 200, { name: "Nine", description: "", image: "", attributes: [] });
  json(res, 404, { error: "NOT_FOUND" });
}
