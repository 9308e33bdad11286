import type { CollectionSummary, Collection } from "../schemas/collection.ts";
import type { ItemEvent } from "../schemas/item-event.ts";
import { cannotCheck } from "./stopped.ts";
import type { Api, Exchange, Query } from "./http.ts";
import { LARGEST_PAGE, paths, type Target } from "./target.ts";

/** A first look at the target that many checks share: each is fetched once, on first need. */
export class Facts {
  readonly target: Target;
  #api: Api;
  /** Each fact's answer, by the name of the method that finds it. */
  #memo = new Map<keyof Facts, Promise<unknown>>();

  constructor(target: Target, api: Api) {
    this.target = target;
    this.#api = api;
  }

  /** A page of the collection list that at least has the list's shape. */
  async list(query: Query = {}) {
    const exchange = await this.#api.get(paths.collections, query);
    const body = requireOk(exchange, "the collection list") as { collections?: unknown; count?: unknown };
    if (!Array.isArray(body.collections) || typeof body.count !== "number")
      throw cannotCheck("the collection list answered no `collections` array and numeric `count`", exchange.request);
    return { exchange, collections: body.collections as CollectionSummary[], count: body.count };
  }

  /** Up to the first 100 collections in the default order; `complete` when that is all of them. */
  sample() {
    return this.#once("sample", async () => {
      const page = await this.list({ perPage: LARGEST_PAGE, page: 1 });
      return { ...page, complete: page.count <= LARGEST_PAGE && page.collections.length === page.count };
    });
  }

  async events(item: { collection: string; tokenId: number }, query: Query = {}) {
    const exchange = await this.#api.get(paths.itemEvents(item.collection, item.tokenId), query);
    const body = requireOk(exchange, "the item history") as { events?: unknown };
    if (!Array.isArray(body.events)) throw cannotCheck("the item history answered no `events` array", exchange.request);
    return { exchange, events: body.events as ItemEvent[] };
  }

  /** The item whose history the suite reads: given, or the first of the first collections that has a history. */
  item() {
    return this.#once("item", async () => {
      const tokenId = this.target.tokenId ?? 1;
      if (this.target.collection) return { collection: this.target.collection.toLowerCase(), tokenId };
      for (const { address } of (await this.sample()).collections.slice(0, 5)) {
        const exchange = await this.#api.get(paths.itemEvents(address, tokenId), { perPage: 1 });
        const events = (exchange.json as { events?: unknown } | undefined)?.events;
        if (exchange.status === 200 && Array.isArray(events) && events.length > 0)
          return { collection: address, tokenId };
      }
      throw cannotCheck(
        `none of the first 5 collections has a token ${tokenId} with a history; pass --collection and --token-id`,
      );
    });
  }

  /** Up to the item's 100 newest events; `complete` when that is its whole history. */
  history() {
    return this.#once("history", async () => {
      const page = await this.events(await this.item(), { perPage: LARGEST_PAGE, page: 1 });
      return { ...page, complete: page.events.length < LARGEST_PAGE };
    });
  }

  /** The collection the suite reads one by one: the item's, or the first listed. */
  collection() {
    return this.#once("collection", async () => {
      const address =
        this.target.collection?.toLowerCase() ??
        (await this.item().catch(() => undefined))?.collection ??
        (await this.sample()).collections[0]?.address;
      if (!address) throw cannotCheck("the target lists no collection; pass --collection");
      return this.#collectionAt(address, "the collection");
    });
  }

  /** The collection the one write mints on: the target's mint collection, or the one the suite reads. */
  mintCollection() {
    return this.#once("mintCollection", async () => {
      const address = this.target.mintCollection?.toLowerCase();
      if (!address || address === this.target.collection?.toLowerCase()) return (await this.collection()).collection;
      return (await this.#collectionAt(address, "the collection to mint on")).collection;
    });
  }

  async #collectionAt(address: string, what: string): Promise<{ exchange: Exchange; collection: Collection }> {
    const exchange = await this.#api.get(paths.collection(address));
    const body = requireOk(exchange, what) as { collection?: unknown };
    if (typeof body.collection !== "object" || body.collection === null)
      throw cannotCheck(`${what} answered no \`collection\` object`, exchange.request);
    return { exchange, collection: body.collection as Collection };
  }

  /** The known item's chain: given, or its collection's. */
  chainId() {
    return this.#once("chainId", async () => {
      if (this.target.chainId !== undefined) return this.target.chainId;
      const { exchange, collection } = await this.collection();
      if (!Number.isInteger(collection.chainId))
        throw cannotCheck(
          `the collection's chainId ${JSON.stringify(collection.chainId)} is not an integer; pass --chain-id`,
          exchange.request,
        );
      return collection.chainId;
    });
  }

  #once<T>(key: keyof Facts, load: () => Promise<T>): Promise<T> {
    return (this.#memo.get(key) ?? this.#memo.set(key, load()).get(key)!) as Promise<T>;
  }
}

function requireOk(exchange: Exchange, what: string): object {
  if (exchange.status !== 200) throw cannotCheck(`${what} answered ${exchange.status}, not 200`, exchange.request);
  if (typeof exchange.json !== "object" || exchange.json === null)
    throw cannotCheck(`${what} answered a body that is not a JSON object`, exchange.request);
  return exchange.json;
}
