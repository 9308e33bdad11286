import { CHECK_GROUPS } from "../../src/contract-suite/suite.ts";
import { CollectionsQuery, NON_FILTER_PARAMETERS } from "../../src/schemas/collection.ts";
import type { Breakage } from "./broken-target.ts";

const isList = (url: URL) => url.pathname === "/api/v2/collection";
const isHistory = (url: URL) => url.pathname.startsWith("/api/v2/item/events/");
const isCollection = (url: URL) => /^\/api\/v2\/collection\/[^/]+$/.test(url.pathname);
const isMint = (url: URL) => url.pathname === "/api/v2/item/new";
const isFiltered = (url: URL) => [...url.searchParams.keys()].some((name) => !NON_FILTER_PARAMETERS.includes(name));
const isKnownRoute = (url: URL) => isList(url) || isHistory(url) || isCollection(url) || isMint(url);

type Page = { collections: Record<string, unknown>[]; count: number };
type History = { events: Record<string, unknown>[] };
const UNKNOWN_ADDRESS = "0x0000000000000000000000000000000000000001";
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const LIST_PARAMETERS = new Set(Object.keys(CollectionsQuery.properties));

/** The events of a history (or the collections of a list) the same URL answers upstream, but on another page. */
async function upstreamPage(url: URL, upstream: string, query: Record<string, string>): Promise<unknown> {
  const other = new URL(url.pathname, upstream);
  url.searchParams.forEach((value, name) => other.searchParams.set(name, value));
  for (const [name, value] of Object.entries(query)) other.searchParams.set(name, value);
  return (await fetch(other)).json();
}

/** Page n ≥ 2 starts one record early: it repeats the last of page n - 1, and the last record of all is never shown. */
function overlapping(field: "collections" | "events", applies: (url: URL) => boolean): Breakage {
  return {
    rewriteBody: async (url, status, body, upstream) => {
      const page = Number(url.searchParams.get("page") ?? 1);
      const perPage = Number(url.searchParams.get("perPage") ?? 24);
      if (!applies(url) || status !== 200 || page < 2) return body;
      const wide = (await upstreamPage(url, upstream, {
        page: "1",
        perPage: String(Math.min(100, page * perPage)),
      })) as Record<string, unknown[]>;
      return { ...wide, [field]: wide[field]!.slice((page - 1) * perPage - 1, page * perPage - 1) };
    },
  };
}

/** Each run of neighbours that tie on the list's sort field, in the reverse of address order. */
function tiesReversed(collections: Record<string, unknown>[], field: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let start = 0; start < collections.length;) {
    let end = start + 1;
    while (end < collections.length && collections[end]![field] === collections[start]![field]) end++;
    out.push(...collections.slice(start, end).reverse());
    start = end;
  }
  return out;
}

const historyEvents = (body: unknown, change: (event: Record<string, unknown>) => Record<string, unknown>) => ({
  events: (body as History).events.map(change),
});

/** An address with its hex digits in upper case (as a checksummed one has some). */
const shouted = (address: string) => `0x${address.slice(2).toUpperCase()}`;

/** Token ids a mint answered, whose histories `historyLagsAfterMint` answers empty. */
const minted = new Set<string>();

/** The seeded defects of the broken targets: what the contract suite and its fuzz mode must each find. */
export const BREAKAGES = {
  // The list
  /** The collection list drops a field its schema requires. */
  listWithoutHolders: {
    rewriteBody: (url, status, body) => {
      if (!isList(url) || status !== 200) return body;
      const list = body as { collections: Record<string, unknown>[] };
      return { ...list, collections: list.collections.map(({ holders: _holders, ...rest }) => rest) };
    },
  },
  /** Paged reads default perPage to 10 instead of 24. */
  perPageDefaultTen: {
    rewriteUrl: (url) => {
      if ((isList(url) || isHistory(url)) && !url.searchParams.has("perPage")) url.searchParams.set("perPage", "10");
      return url;
    },
  },
  /** The list asked without a sortDir comes oldest first. */
  listDefaultOldestFirst: {
    rewriteUrl: (url) => {
      if (isList(url) && !url.searchParams.has("sortDir")) url.searchParams.set("sortDir", "asc");
      return url;
    },
  },
  /** Collections that tie on the sort field come in descending address order. */
  tiesByAddressDescending: {
    rewriteBody: (url, status, body) => {
      if (!isList(url) || status !== 200) return body;
      const page = body as Page;
      return { ...page, collections: tiesReversed(page.collections, url.searchParams.get("sortBy") ?? "mintDate") };
    },
  },
  /** The list sorts the other way than the sortDir given. */
  sortDirReversed: {
    rewriteUrl: (url) => {
      const direction = url.searchParams.get("sortDir");
      if (isList(url) && direction) url.searchParams.set("sortDir", direction === "asc" ? "desc" : "asc");
      return url;
    },
  },
  /** The list ignores sortBy (and sorts by mintDate). */
  sortByIgnored: {
    rewriteUrl: (url) => {
      if (isList(url)) url.searchParams.delete("sortBy");
      return url;
    },
  },
  /** The list ignores its filters. */
  filtersIgnored: {
    rewriteUrl: (url) => {
      if (isList(url))
        for (const name of [...url.searchParams.keys()])
          if (!NON_FILTER_PARAMETERS.includes(name)) url.searchParams.delete(name);
      return url;
    },
  },
  /** A filtered list answers the count of all collections, not of the matches. */
  filteredCountOfAll: {
    rewriteBody: async (url, status, body, upstream) => {
      const filtered = [...url.searchParams.keys()].some((name) => !NON_FILTER_PARAMETERS.includes(name));
      if (!isList(url) || status !== 200 || !filtered) return body;
      const all = (await (await fetch(new URL(url.pathname, upstream))).json()) as Page;
      return { ...(body as Page), count: all.count };
    },
  },
  /** A filtered list answers its matches newest last. */
  filteredOrderReversed: {
    rewriteBody: (url, status, body) => {
      const filtered = [...url.searchParams.keys()].some((name) => !NON_FILTER_PARAMETERS.includes(name));
      if (!isList(url) || status !== 200 || !filtered) return body;
      return { ...(body as Page), collections: [...(body as Page).collections].reverse() };
    },
  },
  /** The list's count is the length of the page, not the number of collections. */
  countOfThePage: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 ? { ...(body as Page), count: (body as Page).collections.length } : body,
  },
  /** A page past the end of the list or of a history answers the page before it: the last page again. */
  pastTheEndRepeatsLast: {
    rewriteBody: async (url, status, body, upstream) => {
      const page = Number(url.searchParams.get("page") ?? 1);
      if (!(isList(url) || isHistory(url)) || status !== 200 || page < 2) return body;
      const records = (body as Partial<Page & History>).collections ?? (body as History).events;
      return records.length > 0 ? body : upstreamPage(url, upstream, { page: String(page - 1) });
    },
  },
  /** Page n of the list starts one record early. */
  overlappingPages: overlapping("collections", isList),
  /** The list's count is a hundred more than there are collections. */
  countInflated: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 ? { ...(body as Page), count: (body as Page).count + 100 } : body,
  },
  /** A full page of the list (perPage=100) drops a field its schema requires. */
  fullPageWithoutHolders: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && url.searchParams.get("perPage") === "100"
        ? { ...(body as Page), collections: (body as Page).collections.map(({ holders: _h, ...rest }) => rest) }
        : body,
  },
  /** A sorted list answers a count one short. */
  sortedCountShort: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && url.searchParams.has("sortBy")
        ? { ...(body as Page), count: (body as Page).count - 1 }
        : body,
  },
  /** A sorted list loses its last four collections. */
  sortLosesFour: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && url.searchParams.has("sortBy")
        ? { ...(body as Page), collections: (body as Page).collections.slice(0, -4) }
        : body,
  },
  /** A filtered list answers count 0 with its matches. */
  filteredCountZero: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && isFiltered(url) ? { ...(body as Page), count: 0 } : body,
  },
  /** A filtered list leaves out its first match. */
  filterDropsFirst: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && isFiltered(url)
        ? { ...(body as Page), collections: (body as Page).collections.slice(1) }
        : body,
  },

  // One collection
  /** The collection answered alone writes its genre as a number. */
  genreAsNumber: {
    rewriteBody: (url, status, body) =>
      isCollection(url) && status === 200
        ? { collection: { ...(body as { collection: object }).collection, genre: 7 } }
        : body,
  },
  /** The collection asked for in upper case answers with one holder more. */
  upperCaseAnswersOtherwise: {
    rewriteBody: (url, status, body) => {
      if (!isCollection(url) || status !== 200 || !/[A-F]/.test(url.pathname)) return body;
      const { collection } = body as { collection: { holders: number } };
      return { collection: { ...collection, holders: collection.holders + 1 } };
    },
  },
  /** The list filtered by an address answers no collection. */
  addressFilterFindsNothing: {
    rewriteBody: (url, status, body) =>
      isList(url) && status === 200 && url.searchParams.has("address") ? { collections: [], count: 0 } : body,
  },
  /** The collection answered alone has no ownerAddress. */
  collectionWithoutOwner: {
    rewriteBody: (url, status, body) => {
      if (!isCollection(url) || status !== 200) return body;
      const { ownerAddress: _owner, ...collection } = (body as { collection: Record<string, unknown> }).collection;
      return { collection };
    },
  },
  /** The collection answered alone writes its address in upper case. */
  collectionAddressUpperCase: {
    rewriteBody: (url, status, body) => {
      if (!isCollection(url) || status !== 200) return body;
      const { collection } = body as { collection: { address: string } };
      return { collection: { ...collection, address: shouted(collection.address) } };
    },
  },
  /** The collection answered alone counts one holder more than its entry in the list. */
  collectionHoldersDiffer: {
    rewriteBody: (url, status, body) => {
      if (!isCollection(url) || status !== 200) return body;
      const { collection } = body as { collection: { holders: number } };
      return { collection: { ...collection, holders: collection.holders + 1 } };
    },
  },
  /** An address in upper case is looked up as written, and not found. */
  upperCaseAddressUnknown: {
    rewriteUrl: (url) => {
      const address = url.pathname.split("/")[4] ?? "";
      if ((isCollection(url) || isHistory(url)) && /[A-F]/.test(address))
        url.pathname = url.pathname.replace(address, UNKNOWN_ADDRESS);
      return url;
    },
  },

  // An item's history
  /** A full page of a history (perPage=100) answers chainId as a string. */
  fullHistoryPageChainIdAsString: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200 && url.searchParams.get("perPage") === "100"
        ? historyEvents(body, (e) => ({ ...e, chainId: String(e.chainId) }))
        : body,
  },
  /** Every item's history is empty. */
  historiesEmpty: {
    rewriteBody: (url, status, body) => (isHistory(url) && status === 200 ? { events: [] } : body),
  },
  /** An item's history answers chainId as a string. */
  chainIdAsString: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200 ? historyEvents(body, (e) => ({ ...e, chainId: String(e.chainId) })) : body,
  },
  /** An item's history comes oldest first. */
  historyOldestFirst: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200 ? { events: [...(body as History).events].reverse() } : body,
  },
  /** Events of one block come in the order of their logs (oldest first), blocks newest first. */
  sameBlockOldestFirst: {
    rewriteBody: (url, status, body) => {
      if (!isHistory(url) || status !== 200) return body;
      const { events } = body as History;
      const logIndex = (e: Record<string, unknown>) => Number(String(e.id).split("-").at(-1));
      const ordered = [...events].sort(
        (a, b) => Number(b.blockNumber) - Number(a.blockNumber) || logIndex(a) - logIndex(b),
      );
      return { events: ordered };
    },
  },
  /** An item's history writes its collection's address in upper case. */
  itemCollectionUpperCase: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => ({ ...e, itemCollection: shouted(e.itemCollection as string) }))
        : body,
  },
  /** An item's history names the token after it. */
  tokenIdOffByOne: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200 ? historyEvents(body, (e) => ({ ...e, tokenId: Number(e.tokenId) + 1 })) : body,
  },
  /** An item's history writes itemRef without its chain. */
  itemRefWithoutChain: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => ({ ...e, itemRef: `${e.itemCollection}-${e.tokenId}` }))
        : body,
  },
  /** An item's history answers another chain's id (the other chain of the world). */
  chainIdOfAnotherChain: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => ({
            ...e,
            chainId: e.chainId === 56 ? 137 : 56,
            itemRef: String(e.itemRef).replace(/^\d+/, e.chainId === 56 ? "137" : "56"),
          }))
        : body,
  },
  /** Event ids written with colons. */
  malformedEventIds: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => ({ ...e, id: String(e.id).replaceAll("-", ":") }))
        : body,
  },
  /** Every event of a page has the page's first id. */
  duplicateEventIds: {
    rewriteBody: (url, status, body) => {
      if (!isHistory(url) || status !== 200) return body;
      const first = (body as History).events[0]?.id;
      return historyEvents(body, (e) => ({ ...e, id: first }));
    },
  },
  /** Ids name another event kind, block or transaction than the event's fields. */
  eventIdsDisagree: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => ({
            ...e,
            id: String(e.id)
              .replace(/^TransferSingle-(\d+)/, (_, block: string) => `TransferSingle-${Number(block) + 1}`)
              .replace(/^(ItemListed|ItemDelisted|ItemPriceUpdated|ItemAdded|ItemRemoved|Swapped)-/, (kind: string) =>
                kind === "Swapped-" ? "ItemListed-" : "Swapped-",
              )
              .replace(/-0x([0-9a-f])/, (_, digit: string) => `-0x${digit === "0" ? "1" : "0"}`),
          }))
        : body,
  },
  /** Timestamps of an item's history in milliseconds on every page but the first. */
  timestampsDisagree: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) =>
            e.event === "TransferSingle" ? e : { ...e, timestamp: Number(e.timestamp) * 1000 },
          )
        : body,
  },
  /** An item's history leaves out its mint. */
  historyWithoutMint: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? { events: (body as History).events.filter((e) => e.from !== ZERO_ADDRESS) }
        : body,
  },
  /** Page n of a history starts one event early. */
  overlappingHistoryPages: overlapping("events", isHistory),

  // Errors
  /** Errors keep their status but answer plain text. */
  plainTextErrors: { rewriteText: (_url, status, text) => (status >= 400 ? "Bad Request" : text) },
  /** Errors answer JSON with the code of another status. */
  errorCodesMismatched: {
    rewriteBody: (_url, status, body) =>
      status >= 400 ? { ...(body as object), error: status === 400 ? "NOT_FOUND" : "BAD_REQUEST" } : body,
  },
  /** Out-of-range paging, unknown sorts and filters and ill-typed filters are ignored, not refused. */
  lenientQueries: {
    rewriteUrl: (url) => {
      if (!isList(url) && !isHistory(url)) return url;
      for (const [name, value] of [...url.searchParams]) {
        const number = Number(value);
        if (name === "perPage" || name === "page")
          url.searchParams.set(name, String(Math.min(100, Math.max(1, Number.isInteger(number) ? number : 1))));
        else if (isHistory(url) || !LIST_PARAMETERS.has(name)) url.searchParams.delete(name);
        else if (name === "sortDir" && value !== "asc" && value !== "desc") url.searchParams.delete(name);
        else if (name === "sortBy" && !(value in CollectionsQuery.properties)) url.searchParams.delete(name);
        else if (name === "chainId" && !Number.isInteger(number)) url.searchParams.delete(name);
      }
      return url;
    },
  },
  /** A malformed address or token id in the path answers 404 (not found) instead of 400. */
  malformedPathNotFound: {
    rewriteStatus: (url, status) =>
      (isCollection(url) || isHistory(url)) && status === 400 && !url.search ? 404 : status,
  },
  /** A missing collection answers 410, which the interface does not document. */
  undocumentedStatus: {
    rewriteStatus: (url, status) => (url.pathname.startsWith("/api/v2/collection/") && status === 404 ? 410 : status),
  },
  /** An unknown item's history answers 200 and no events. */
  unknownItemEmptyHistory: {
    rewriteBody: (url, status, body) => (isHistory(url) && status === 404 ? { events: [] } : body),
    rewriteStatus: (url, status) => (isHistory(url) && status === 404 ? 200 : status),
  },
  /** An unknown route answers 200 and a web page. */
  unknownRouteAnswersPage: {
    rewriteText: (url, _status, text) => (isKnownRoute(url) ? text : "<!doctype html><title>App</title>"),
    rewriteStatus: (url, status) => (isKnownRoute(url) ? status : 200),
  },
  /** A mint with a key the target does not know mints all the same (as with the world's first key). */
  unknownKeyAccepted: {
    rewriteUrl: (url) => {
      const key = url.searchParams.get("apiKey");
      if (isMint(url) && key && !key.startsWith("demo-")) url.searchParams.set("apiKey", "demo-studio-key");
      return url;
    },
  },
  /** A mint's missing or unknown key answers 403, not 401. */
  mintKeyForbidden: {
    rewriteStatus: (url, status) => (isMint(url) && status === 401 ? 403 : status),
  },
  /** A mint body it cannot read answers 500. */
  mintBodyServerError: {
    rewriteStatus: (url, status) => (isMint(url) && status === 400 ? 500 : status),
  },
  /** A mint body in a content-encoding it is not in answers 500. */
  serverErrorOnCoding: {
    rewriteStatus: (url, status, headers) => (isMint(url) && headers["content-encoding"] ? 500 : status),
  },
  /** Numbers in hexadecimal are read as numbers (perPage=0x10 is 16). */
  hexNumbersAccepted: {
    rewriteUrl: (url) => {
      for (const [name, value] of url.searchParams)
        if (/^0x[0-9a-f]+$/i.test(value) && name !== "apiKey") url.searchParams.set(name, String(Number(value)));
      return url;
    },
  },

  // The mint
  /** A mint answers 202 (accepted, not yet mined). */
  mintAnswers202: {
    rewriteStatus: (url, status) => (isMint(url) && status === 200 ? 202 : status),
  },
  /** A mint answers a transaction hash of 20 bytes. */
  mintTxHashShort: {
    rewriteBody: (url, status, body) =>
      isMint(url) && status === 200
        ? { ...(body as object), txHash: String((body as { txHash: string }).txHash).slice(0, 42) }
        : body,
  },
  /** A mint answers its chainId as a string. */
  mintChainIdAsString: {
    rewriteBody: (url, status, body) =>
      isMint(url) && status === 200
        ? { ...(body as object), chainId: String((body as { chainId: number }).chainId) }
        : body,
  },
  /** A minted item's history is empty at first (the read lags the write). */
  historyLagsAfterMint: {
    rewriteBody: (url, status, body) => {
      if (isMint(url) && status === 200) {
        const { collectionAddress, tokenIds } = body as { collectionAddress: string; tokenIds: number[] };
        for (const tokenId of tokenIds) minted.add(`/api/v2/item/events/${collectionAddress}/${tokenId}`);
      }
      return isHistory(url) && minted.has(url.pathname) ? { events: [] } : body;
    },
  },
  /** A mint goes to the collection's owner, whoever it names. */
  mintToOwner: {
    rewriteBody: (url, status, body) =>
      isHistory(url) && status === 200
        ? historyEvents(body, (e) => (e.from === ZERO_ADDRESS ? { ...e, to: UNKNOWN_ADDRESS } : e))
        : body,
  },
} satisfies Record<string, Breakage>;

export type BreakageName = keyof typeof BREAKAGES;

const sorted = (field: string, direction: string) => `sortBy=${field}&sortDir=${direction} sorts, ties by address`;
const errorChecks = (name: string) => [
  `${name} answers `,
  `${name} answers the JSON error body {error, message, errors[]}`,
];

/** Status breakages under which the error body fails too (a 2xx, or a code that does not go with the new status). */
const BODY_FAILS_TOO = new Set<BreakageName>([
  "lenientQueries",
  "unknownItemEmptyHistory",
  "unknownRouteAnswersPage",
  "unknownKeyAccepted",
  "malformedPathNotFound",
]);

/**
 * Every check of the contract suite, by name, and the seeded broken targets it must fail on: a check that has never
 * failed is not known to work. A check added without a line here fails test/contract-suite/suite.test.ts.
 */
export const BROKEN_TARGETS_OF: Record<string, Record<string, BreakageName[]>> = {
  "GET /api/v2/collection": {
    "the default request answers 200 and a CollectionsResponse body": ["listWithoutHolders"],
    "a full page (perPage=100) answers 200 and a CollectionsResponse body": [
      "listWithoutHolders",
      "fullPageWithoutHolders",
    ],
    "the default equals the explicit ?perPage=24&page=1&sortBy=mintDate&sortDir=desc": [
      "perPageDefaultTen",
      "listDefaultOldestFirst",
    ],
    "the default page holds min(24, count) collections": ["perPageDefaultTen"],
    // The default world has no two collections of one mintDate: ties are broken wrongly under the other sorts.
    "the default order is mintDate descending, ties by address": ["listDefaultOldestFirst"],
    "pages are disjoint and together equal the first page of 100": ["overlappingPages"],
    "count is the total on every page, and page lengths follow from it": [
      "countOfThePage",
      "pastTheEndRepeatsLast",
      "countInflated",
    ],
    [sorted("mintDate", "asc")]: ["sortDirReversed", "sortedCountShort", "sortLosesFour"],
    [sorted("mintDate", "desc")]: ["sortDirReversed", "sortedCountShort", "sortLosesFour"],
    [sorted("name", "asc")]: ["sortDirReversed", "sortByIgnored", "sortedCountShort"],
    [sorted("name", "desc")]: ["sortDirReversed", "sortByIgnored", "sortedCountShort"],
    [sorted("holders", "asc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    [sorted("holders", "desc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    [sorted("volume_all", "asc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    [sorted("volume_all", "desc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    [sorted("chainId", "asc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    [sorted("chainId", "desc")]: ["sortDirReversed", "sortByIgnored", "tiesByAddressDescending", "sortedCountShort"],
    "the filter chainId=<the known collection's chainId> answers exactly the matches": [
      "filtersIgnored",
      "filteredCountOfAll",
      "filteredOrderReversed",
      "filteredCountZero",
      "filterDropsFirst",
    ],
    "the filter genre=<the known collection's genre> answers exactly the matches": [
      "filtersIgnored",
      "filteredCountOfAll",
      "filteredOrderReversed",
      "filteredCountZero",
      "filterDropsFirst",
      "genreAsNumber",
    ],
    "the filter name=<the known collection's name> answers exactly the matches": [
      "filtersIgnored",
      "filteredCountOfAll",
      "filteredCountZero",
      "filterDropsFirst",
    ],
    "a filter that matches nothing answers no collections and count 0": ["filtersIgnored", "filteredCountOfAll"],
  },
  "GET /api/v2/collection/:address": {
    "a known collection answers 200 and a CollectionResponse body": ["collectionWithoutOwner"],
    "it answers the collection asked for, its address in lower case": ["collectionAddressUpperCase"],
    "it equals its entry in the list, plus imageUrl": [
      "collectionHoldersDiffer",
      "collectionWithoutOwner",
      "addressFilterFindsNothing",
    ],
    "the address is accepted in upper case and answers the same collection": [
      "upperCaseAddressUnknown",
      "upperCaseAnswersOtherwise",
    ],
  },
  "GET /api/v2/item/events/:address/:tokenId": {
    "the known item's history answers 200 and an ItemEventsResponse body": ["chainIdAsString"],
    "a full page (perPage=100) answers 200 and an ItemEventsResponse body": [
      "chainIdAsString",
      "fullHistoryPageChainIdAsString",
    ],
    "the default equals the explicit ?perPage=24&page=1": ["perPageDefaultTen"],
    "the default page holds min(24, history length) events": ["perPageDefaultTen"],
    "events are newest first: block, then log index, descending": ["historyOldestFirst", "sameBlockOldestFirst"],
    "timestamps never increase down the history": ["historyOldestFirst", "timestampsDisagree"],
    "ids are well formed, unique and agree with the event's fields": [
      "malformedEventIds",
      "duplicateEventIds",
      "eventIdsDisagree",
    ],
    "itemCollection, tokenId and chainId name the item asked for, and itemRef agrees with them": [
      "itemCollectionUpperCase",
      "tokenIdOffByOne",
      "itemRefWithoutChain",
      "chainIdOfAnotherChain",
    ],
    "the oldest event is the mint (a transfer from the zero address)": [
      "historyOldestFirst",
      "historyWithoutMint",
      "historiesEmpty",
    ],
    "pages are disjoint and together equal the first page of 100": ["overlappingHistoryPages"],
    "the page after the last is empty": ["pastTheEndRepeatsLast"],
  },
  // Each case's status, then its body.
  errors: {
    ...errorsOn("a malformed address on /collection/:address", 400, ["malformedPathNotFound"]),
    ...errorsOn("an unknown collection on /collection/:address", 404, ["undocumentedStatus"]),
    ...errorsOn("perPage=0 on the list", 400, ["lenientQueries"]),
    ...errorsOn("perPage=1000 on the list", 400, ["lenientQueries"]),
    ...errorsOn("page=0 on the list", 400, ["lenientQueries"]),
    ...errorsOn("sortBy on an unknown field", 400, ["lenientQueries"]),
    ...errorsOn("sortDir other than asc or desc", 400, ["lenientQueries"]),
    ...errorsOn("a filter on an unknown field", 400, ["lenientQueries"]),
    ...errorsOn("a filter value of the wrong type (chainId=abc)", 400, ["lenientQueries"]),
    ...errorsOn("a malformed address on item events", 400, ["malformedPathNotFound"]),
    ...errorsOn("an unknown collection on item events", 404, ["unknownItemEmptyHistory"]),
    ...errorsOn("an unknown tokenId of a known collection on item events", 404, ["unknownItemEmptyHistory"]),
    ...errorsOn("a tokenId that is not an integer on item events", 400, ["malformedPathNotFound"]),
    ...errorsOn("perPage=0 on item events", 400, ["lenientQueries"]),
    ...errorsOn("perPage=1000 on item events", 400, ["lenientQueries"]),
    ...errorsOn("a mint without apiKey", 401, ["mintKeyForbidden"]),
    ...errorsOn("a mint with an unknown apiKey", 401, ["mintKeyForbidden", "unknownKeyAccepted"]),
    ...errorsOn("a mint with an invalid body (malformed recipient, no item)", 400, ["mintBodyServerError"]),
    ...errorsOn("an unknown route under /api/v2", 404, ["unknownRouteAnswersPage"]),
  },
  "POST /api/v2/item/new (writes)": {
    "a valid mint answers 200 with a txHash": ["mintTxHashShort", "mintAnswers202"],
    "the mint answer is a MintResponse body": ["mintChainIdAsString", "mintTxHashShort"],
    "the minted item's history shows the mint right away": ["historyLagsAfterMint", "mintToOwner", "mintAnswers202"],
  },
};

/** An error case's two checks: its status fails on `statusBreakages`, its body on plain text and on a code of another status. */
function errorsOn(name: string, status: number, statusBreakages: BreakageName[]): Record<string, BreakageName[]> {
  const [statusCheck, bodyCheck] = errorChecks(name);
  return {
    [`${statusCheck}${status}`]: statusBreakages,
    [bodyCheck!]: ["plainTextErrors", "errorCodesMismatched", ...statusBreakages.filter((b) => BODY_FAILS_TOO.has(b))],
  };
}

/** Every check of the suite as `<group> › <check>`, in its order. */
export const CHECK_NAMES: string[] = CHECK_GROUPS.flatMap((group) =>
  group.checks.map((check) => `${group.name} › ${check.name}`),
);

/** The table's checks as `<group> › <check>`, each with its broken targets. */
export const CHECK_TARGETS: Record<string, BreakageName[]> = Object.fromEntries(
  Object.entries(BROKEN_TARGETS_OF).flatMap(([group, checks]) =>
    Object.entries(checks).map(([check, breakages]) => [`${group} › ${check}`, breakages]),
  ),
);
