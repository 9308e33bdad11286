/** An item as the control API lists a collection's (`/_sim/collections/:address/items`). */
export interface ListedItem {
  tokenId: number;
  name: string;
  supply: string;
  holders: number;
  events: number;
}

/** What a client can read of the world, as `readWorld` read it. */
export interface WorldRead {
  /** Every answer by the path asked, as its status and body text: two worlds that answer alike give equal maps. */
  answers: Map<string, string>;
  /** The collections as listed (every page), and the count the list gives. */
  collections: { address: string; uri: string; holders: number }[];
  count: number;
  /** Each collection's items as the control API lists them (only with `control`). */
  items: Map<string, ListedItem[]>;
  /** Each item's whole history (every page), by `<collection>/<tokenId>`. */
  histories: Map<string, unknown[]>;
}

/** The largest page the API gives. */
const PAGE = 100;

/**
 * The one "read the whole world" of the tests, over HTTP: the collection list (every page, in address order; of
 * `chainId` only if given), each collection alone, each item's whole history and its metadata, and with `control` each
 * collection's items as the control API lists them, the world's handles and the chains' clocks. Without `control` (a
 * start still answering from an image, whose control API waits for the chains) an item is found by asking for token ids
 * from 1 until the first 404.
 */
export async function readWorld(
  base: string,
  { chainId, control = true }: { chainId?: number; control?: boolean } = {},
): Promise<WorldRead> {
  const read: WorldRead = { answers: new Map(), collections: [], count: 0, items: new Map(), histories: new Map() };
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${base}${path}`);
    const text = await response.text();
    read.answers.set(path, `${response.status} ${text}`);
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const onChain = chainId === undefined ? "" : `&chainId=${chainId}`;
  for (let page = 1; ; page += 1) {
    const { body } = await get(`/api/v2/collection?perPage=${PAGE}&page=${page}&sortBy=address&sortDir=asc${onChain}`);
    read.collections.push(...body.collections);
    read.count = body.count;
    if (body.collections.length < PAGE) break;
  }
  for (const { address, uri } of read.collections) {
    await get(`/api/v2/collection/${address}`);
    let tokenIds: number[] | undefined;
    if (control) {
      const { body } = await get(
        `/_sim/collections/${address}/items${chainId === undefined ? "" : `?chainId=${chainId}`}`,
      );
      read.items.set(address, body.items);
      tokenIds = (body.items as ListedItem[]).map((item) => item.tokenId);
    }
    for (let i = 0; tokenIds ? i < tokenIds.length : true; i += 1) {
      const tokenId = tokenIds ? tokenIds[i]! : i + 1;
      const history = await wholeHistory(get, `/api/v2/item/events/${address}/${tokenId}`);
      if (!history) break;
      read.histories.set(`${address}/${tokenId}`, history);
      await get(`${new URL(uri).pathname}/${tokenId}`);
    }
  }
  if (control) {
    await get("/_sim/world");
    await get("/_sim/time");
  }
  return read;
}

/** Every page of an item's history; undefined if it has none (404). */
async function wholeHistory(
  get: (path: string) => Promise<{ status: number; body: any }>,
  path: string,
): Promise<unknown[] | undefined> {
  const events: unknown[] = [];
  for (let page = 1; ; page += 1) {
    const { status, body } = await get(`${path}?perPage=${PAGE}&page=${page}`);
    if (status === 404 && page === 1) return undefined;
    if (status !== 200) throw new Error(`${path} page ${page}: ${status} ${JSON.stringify(body)}`);
    events.push(...body.events);
    if (body.events.length < PAGE) return events;
  }
}
