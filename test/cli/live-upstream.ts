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

/** A live collection's answer: what sets it apart, in the fields every upstream here leaves empty or at zero. */
function liveCollection(own: {
  address: string;
  name: string;
  ownerAddress: string;
  slug: string;
  uri: string;
  mintDate: string;
  holders: number;
  volumes?: { volume_30d: number; volume_all: number };
}) {
  const { address, name, ownerAddress, slug, uri, mintDate, holders } = own;
  const volumes = { volume_1d: 0, volume_1w: 0, volume_30d: 0, volume_all: 0, ...own.volumes };
  const empty = { description: "", genre: "Art", image: "", imageHash: "" };
  return {
    address,
    name,
    ...empty,
    ownerAddress,
    slug,
    uri,
    website: "",
    mintDate,
    chainId: 56,
    holders,
    ...volumes,
    imageUrl: "",
  };
}

// The original's item: token 9 of 0xdb00… on chain 56, as its documented history answers it.
export const ADDRESS = "0xdb0047cb1dfc44696f6e9868ef6bb40000280b05";
export function originalService(req: IncomingMessage, res: ServerResponse, base: string): void {
  const url = new URL(req.url!, base);
  const collection = liveCollection({
    address: ADDRESS,
    name: "Original",
    ownerAddress: "0x7a6d17c77fe350011596572d73d332d6b0794f06",
    slug: "original",
    uri: `${base}/meta`,
    mintDate: "2023-01-01T09:00:00.000Z",
    holders: 1,
  });
  if (url.pathname === "/api/v2/collection") return json(res, 200, { collections: [collection], count: 1 });
  if (url.pathname === `/api/v2/collection/${ADDRESS}`) return json(res, 200, { collection });
  if (url.pathname.startsWith("/api/v2/collection/")) return json(res, 404, { error: "NOT_FOUND" });
  if (url.pathname === `/api/v2/item/events/${ADDRESS}/9`)
    return json(res, 200, url.searchParams.get("page") === "1" ? ORIGINAL : { events: [] });
  if (url.pathname === "/meta/9") return json(res, 200, { name: "Nine", description: "", image: "", attributes: [] });
  json(res, 404, { error: "NOT_FOUND" });
}

// A collection whose live block 30,000,200 held two transactions: token 2 moved from A to B (log 0), then token 1
// listed by A (its escrow transfer, log 1, and ItemListed, log 2).
export const SHARED_ADDRESS = "0x5ba4ed0000000000000000000000000000000b10";
export const SHARED_BLOCK = 30_000_200;
const SELLER = "0xa000000000000000000000000000000000000001";
const BUYER = "0xb000000000000000000000000000000000000002";
export const LIVE_MARKET = "0x3000000000000000000000000000000000000009";
const sharedTime = (block: number) => 1_672_000_000 + (block - 30_000_000) * 3;

function liveTransfer(
  block: number,
  logIndex: number,
  tokenId: number,
  from: string,
  to: string,
  amount: number,
  collection = SHARED_ADDRESS,
) {
  return {
    id: `TransferSingle-${block}-${logIndex}`,
    amount: String(amount),
    blockNumber: block,
    chainId: 56,
    event: "TransferSingle",
    from,
    itemCollection: collection,
    itemRef: `56-${collection}-${tokenId}`,
    timestamp: sharedTime(block),
    to,
    tokenId,
    transactionHash: `0x${(block * 10 + logIndex).toString(16).padStart(64, "0")}`,
  };
}

const escrowed = liveTransfer(SHARED_BLOCK, 1, 1, SELLER, LIVE_MARKET, 1);
export const SHARED_HISTORIES: Record<number, unknown[]> = {
  1: [
    {
      ...escrowed,
      id: `ItemListed-1-${escrowed.transactionHash}-2`,
      event: "ItemListed",
      to: "",
      currency: "0x0000000000000000000000000000000000000000",
      currencyPrice: 243.06,
      price: 10,
      worth: 0,
    },
    escrowed,
    liveTransfer(30_000_100, 0, 1, "0x0000000000000000000000000000000000000000", SELLER, 5),
  ],
  2: [
    liveTransfer(SHARED_BLOCK, 0, 2, SELLER, BUYER, 2),
    liveTransfer(30_000_101, 0, 2, "0x0000000000000000000000000000000000000000", SELLER, 5),
  ],
};

export const sharedBlockService: Handler = sharedBlock(SHARED_HISTORIES);

// The same block, token 2's history without its mint (the replay mints it first), its transfer of 1 (what it mints).
export const unmintedSharedBlockService: Handler = sharedBlock({
  1: SHARED_HISTORIES[1]!,
  2: [liveTransfer(SHARED_BLOCK, 0, 2, SELLER, BUYER, 1)],
});

// The same block, token 2 minted in the block just below it: no block is free there for the listing's approval.
export const crowdedSharedBlockService: Handler = sharedBlock({
  1: SHARED_HISTORIES[1]!,
  2: [
    SHARED_HISTORIES[2]![0],
    liveTransfer(SHARED_BLOCK - 1, 0, 2, "0x0000000000000000000000000000000000000000", SELLER, 5),
  ],
});

function sharedBlock(histories: Record<number, unknown[]>): Handler {
  return (req, res, base) => {
    const url = new URL(req.url!, base);
    const collection = liveCollection({
      address: SHARED_ADDRESS,
      name: "Shared Block",
      ownerAddress: SELLER,
      slug: "shared-block",
      uri: `${base}/shared-meta`,
      mintDate: new Date(sharedTime(30_000_050) * 1000).toISOString(),
      holders: 2,
    });
    if (url.pathname === "/api/v2/collection") return json(res, 200, { collections: [collection], count: 1 });
    if (url.pathname === `/api/v2/collection/${SHARED_ADDRESS}`) return json(res, 200, { collection });
    const history = /^\/api\/v2\/item\/events\/0x[0-9a-f]+\/(\d+)$/.exec(url.pathname);
    const events = history && histories[Number(history[1])];
    if (events) return json(res, 200, { events: url.searchParams.get("page") === "1" ? events : [] });
    const meta = /^\/shared-meta\/([12])$/.exec(url.pathname);
    if (meta) return json(res, 200, { name: `Token ${meta[1]}`, description: "", image: "", attributes: [] });
    json(res, 404, { error: "NOT_FOUND" });
  };
}

// A collection whose tokens were listed through two marketplaces of chain 56, each numbering its listings from 1, so
// both have a listing 7: token 1 listed and delisted through one, whose escrow two transfers name; token 2 listed
// through another, its price updated, then bought, whose escrow two transfers name too (the first used is the world's).
export const TWO_MARKETS_ADDRESS = "0x7a0a4ed000000000000000000000000000000b11";
export const MAIN_MARKET = "0x3000000000000000000000000000000000000007";
export const OTHER_MARKET = "0x3000000000000000000000000000000000000008";
export const TWO_MARKETS_SELLER = SELLER;
export const TWO_MARKETS_BUYER = BUYER;

/**
 * A market event of `transfer`'s transaction, the log after it; a price update moves no token: its transaction's
 * only log (`alone`).
 */
function liveMarket(
  transfer: ReturnType<typeof liveTransfer>,
  event: string,
  listingId: number,
  parties: { from: string; to?: string; price?: number; worth?: number; alone?: boolean },
) {
  const logIndex = parties.alone ? 0 : Number(transfer.id.split("-").at(-1)) + 1;
  const market = { currency: "0x0000000000000000000000000000000000000000", currencyPrice: 243.06 };
  const id = `${event}-${listingId}-${transfer.transactionHash}-${logIndex}`;
  const { from, to = "", price = 10, worth = 0 } = parties;
  return { ...transfer, id, event, from, to, ...market, price, worth };
}

const mainListed = liveTransfer(30_000_200, 0, 1, SELLER, MAIN_MARKET, 1, TWO_MARKETS_ADDRESS);
const mainDelisted = liveTransfer(30_000_300, 0, 1, MAIN_MARKET, SELLER, 1, TWO_MARKETS_ADDRESS);
const otherListed = liveTransfer(30_000_400, 0, 2, SELLER, OTHER_MARKET, 1, TWO_MARKETS_ADDRESS);
const otherRepriced = liveTransfer(30_000_450, 0, 2, SELLER, "", 1, TWO_MARKETS_ADDRESS);
const otherBought = liveTransfer(30_000_500, 0, 2, OTHER_MARKET, BUYER, 1, TWO_MARKETS_ADDRESS);
export const TWO_MARKETS_HISTORIES: Record<number, Record<string, unknown>[]> = {
  1: [
    liveMarket(mainDelisted, "ItemDelisted", 7, { from: SELLER }),
    mainDelisted,
    liveMarket(mainListed, "ItemListed", 7, { from: SELLER }),
    mainListed,
    liveTransfer(30_000_100, 0, 1, "0x0000000000000000000000000000000000000000", SELLER, 1, TWO_MARKETS_ADDRESS),
  ],
  2: [
    liveMarket(otherBought, "Swapped", 7, { from: SELLER, to: BUYER, price: 12, worth: 2916.72 }),
    otherBought,
    liveMarket(otherRepriced, "ItemPriceUpdated", 7, { from: SELLER, price: 12, alone: true }),
    liveMarket(otherListed, "ItemListed", 7, { from: SELLER }),
    otherListed,
    liveTransfer(30_000_101, 0, 2, "0x0000000000000000000000000000000000000000", SELLER, 1, TWO_MARKETS_ADDRESS),
  ],
};

export function twoMarketsService(req: IncomingMessage, res: ServerResponse, base: string): void {
  const url = new URL(req.url!, base);
  const collection = liveCollection({
    address: TWO_MARKETS_ADDRESS,
    name: "Two Markets",
    ownerAddress: SELLER,
    slug: "two-markets",
    uri: `${base}/two-meta`,
    mintDate: new Date(sharedTime(30_000_050) * 1000).toISOString(),
    holders: 2,
    // Token 2's sale (12 × 243.06), a week before the import's now.
    volumes: { volume_30d: 2916.72, volume_all: 2916.72 },
  });
  if (url.pathname === "/api/v2/collection") return json(res, 200, { collections: [collection], count: 1 });
  if (url.pathname === `/api/v2/collection/${TWO_MARKETS_ADDRESS}`) return json(res, 200, { collection });
  const history = /^\/api\/v2\/item\/events\/0x[0-9a-f]+\/(\d+)$/.exec(url.pathname);
  const events = history && TWO_MARKETS_HISTORIES[Number(history[1])];
  if (events) return json(res, 200, { events: url.searchParams.get("page") === "1" ? events : [] });
  const meta = /^\/two-meta\/([12])$/.exec(url.pathname);
  if (meta) return json(res, 200, { name: `Token ${meta[1]}`, description: "", image: "", attributes: [] });
  json(res, 404, { error: "NOT_FOUND" });
}
