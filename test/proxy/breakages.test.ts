import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runContractSuite } from "../../src/contract-suite/suite.ts";
import { startProxy, type RunningProxy } from "../../src/proxy/server.ts";
import { BREAKAGES, type BreakageName } from "../contract-suite/breakages.ts";
import { startBrokenTarget } from "../contract-suite/broken-target.ts";
import { startSnapshotTarget, type SnapshotTarget } from "../contract-suite/snapshot-target.ts";

// The proxy in front of each of the contract suite's seeded broken targets (over the fast snapshot target), the suite's
// own traffic sent through it: what it finds in one answer at a time, checked against what each target breaks.

/** Each defect the proxy sees in one answer of the suite's traffic, and a violation that names it. */
const FOUND: Partial<Record<BreakageName, RegExp>> = {
  listWithoutHolders: /missing required field 'holders'/,
  perPageDefaultTen: /holds 10 collections with count \d+; the default perPage 24 means 24/,
  listDefaultOldestFirst: /not in mintDate desc order/,
  tiesByAddressDescending: /tie on \w+ .* but are not in address order/,
  sortDirReversed: /not in \w+ (asc|desc) order/,
  sortByIgnored: /sorted by (name|holders|volume_all|chainId) /,
  filtersIgnored: /^filtered by \w+=.*, not a match$/,
  filteredCountOfAll: /holds \d+ collections with count \d+/,
  filteredOrderReversed: /not in mintDate desc order/,
  countOfThePage: /page 2 holds 7 collections with count 7; perPage 7 means 0/,
  pastTheEndRepeatsLast: /holds \d+ collections with count \d+; perPage \d+ means 0/,
  overlappingPages: /holds 1 collections with count 35; perPage 7 means 0/,
  countInflated: /holds 35 collections with count 135/,
  fullPageWithoutHolders: /missing required field 'holders'/,
  sortedCountShort: /holds 35 collections with count 34/,
  sortLosesFour: /holds 20 collections with count 35/,
  filteredCountZero: /with count 0; perPage 100 means 0/,
  filterDropsFirst: /holds (\d+) collections with count \d+/,
  genreAsNumber: /genre must be string/,
  collectionWithoutOwner: /missing required field 'ownerAddress'/,
  collectionAddressUpperCase: /address must match pattern/,
  fullHistoryPageChainIdAsString: /\(its response schema\)/,
  historiesEmpty: /first page of an item's history is empty/,
  chainIdAsString: /\(its response schema\)/,
  historyOldestFirst: /history must be newest first/,
  sameBlockOldestFirst: /\(block (\d+), log 0\) is listed before #2 .* \(block \1, log 1\)/,
  itemCollectionUpperCase: /\(its response schema\)|itemCollection/,
  tokenIdOffByOne: /tokenId 4, expected 3/,
  itemRefWithoutChain: /\(its response schema\)|itemRef/,
  malformedEventIds: /\(its response schema\)|is neither/,
  duplicateEventIds: /id must match pattern|appears twice/,
  eventIdsDisagree: /names \w+ but the event is \w+|names block/,
  timestampsDisagree: /timestamps never increase down a history/,
  historyWithoutMint: /the last page ends with .*, not the mint/,
  plainTextErrors: /^the body is not JSON: Bad Request$/,
  errorCodesMismatched: /^error code \w+ does not go with status \d+/,
  lenientQueries: /^accepted \(200\) a request its schemas refuse/,
  malformedPathNotFound: /answered 404 to a request its schemas refuse, expected 400|does not go with status 404/,
  undocumentedStatus: /^answered 410, which getCollection does not document/,
  unknownItemEmptyHistory: /first page of an item's history is empty/,
  unknownRouteAnswersPage: /^answered 200 to a route the interface does not have, expected 404$/,
  mintKeyForbidden: /^answered 403 to a request with no API key, expected 401$/,
  mintBodyServerError: /^answered 500: a server error$/,
  mintAnswers202: /^answered 202, which mintItem does not document/,
  mintTxHashShort: /txHash must match pattern/,
  mintChainIdAsString: /chainId must be integer/,
  historyLagsAfterMint: /first page of an item's history is empty/,
};

/**
 * The defects no single answer of the suite's traffic shows: they take two answers compared (the list against one
 * collection, an address in two cases, two pages, a mint and its history), a key only the service knows, or requests
 * the suite does not send (hexadecimal numbers, a content coding). The proxy reports none of them.
 */
const UNSEEN: BreakageName[] = [
  "upperCaseAnswersOtherwise",
  "addressFilterFindsNothing",
  "collectionHoldersDiffer",
  "upperCaseAddressUnknown",
  "chainIdOfAnotherChain",
  "overlappingHistoryPages",
  "unknownKeyAccepted",
  "serverErrorOnCoding",
  "hexNumbersAccepted",
  "mintToOwner",
];

let target: SnapshotTarget;
beforeAll(async () => {
  target = await startSnapshotTarget();
});
afterAll(async () => target?.close());

async function throughProxy(upstream: string): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream: new URL(upstream), strict: false, tell: () => undefined }, 0);
  await runContractSuite({ ...target.target, baseUrl: proxy.url });
  await proxy.close();
  return proxy;
}

describe("nft-sim proxy in front of the contract suite's targets, the suite's traffic through it", () => {
  it("reports no violation in front of a target that keeps the interface", async () => {
    expect((await throughProxy(target.url)).findings.found).toEqual([]);
  });

  it("decides, for every seeded broken target, whether one answer shows its defect", () => {
    expect([...Object.keys(FOUND), ...UNSEEN].sort()).toEqual(Object.keys(BREAKAGES).sort());
  });

  it.each(Object.entries(FOUND) as [BreakageName, RegExp][])("reports the defect of %s", async (name, violation) => {
    const broken = await startBrokenTarget(target.url, BREAKAGES[name]);
    try {
      const { found } = (await throughProxy(broken.url)).findings;
      const lines = found.flatMap((finding) => finding.violations);
      expect(
        lines.some((line) => violation.test(line)),
        lines.join("\n"),
      ).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it.each(UNSEEN)("reports nothing of %s, which no one answer shows", async (name) => {
    const broken = await startBrokenTarget(target.url, BREAKAGES[name]);
    try {
      expect((await throughProxy(broken.url)).findings.found).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
