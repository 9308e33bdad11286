import { describe, expect, it } from "vitest";
import {
  historyPageProblems,
  isMint,
  listPageProblems,
  notNewestFirst,
  timestampRises,
  ZERO_ADDRESS,
} from "../../../src/contract-suite/answers/page-rules.ts";

// The rules one page shows, on hand-made pages broken one way each.

const COLLECTION = "0x470d7b2d4855bb6e80654c911fa410a717f77e0e";
const OTHER = "0x19add1c9dd472b057487f493f424ba8b2e30f883";
const SOMEONE = "0x9b07418a910748a2b0d9458b1e792b03cb7c4f3f";

/** A transfer of token 3 of COLLECTION on chain 56: newest first as the blocks fall. */
const transfer = (blockNumber: number, from = SOMEONE, logIndex = 0) => ({
  id: `TransferSingle-${blockNumber}-${logIndex}`,
  event: "TransferSingle",
  blockNumber,
  timestamp: 1_700_000_000 + blockNumber,
  from,
  chainId: 56,
  itemCollection: COLLECTION,
  tokenId: 3,
  itemRef: `56-${COLLECTION}-3`,
});
const historyOf = (query: [string, string][] = []) => ({
  params: [
    ["address", COLLECTION],
    ["tokenId", "3"],
  ] as [string, string][],
  query,
});

describe("a mint", () => {
  it("is a single or batch transfer from the zero address", () => {
    expect(isMint({ event: "TransferSingle", from: ZERO_ADDRESS })).toBe(true);
    expect(isMint({ event: "TransferBatch", from: ZERO_ADDRESS })).toBe(true);
    expect(isMint({ event: "TransferBatch", from: SOMEONE })).toBe(false);
    expect(isMint({ event: "ItemListed", from: ZERO_ADDRESS })).toBe(false);
  });
});

describe("a history's order", () => {
  it("is newest first by block, then log index; a malformed id is left to its own rule", () => {
    expect(notNewestFirst([transfer(9), transfer(8, SOMEONE, 5), transfer(8, SOMEONE, 4)])).toBeUndefined();
    expect(notNewestFirst([transfer(9, SOMEONE, 1), transfer(9, SOMEONE, 1)])).toBe(
      "event #1 TransferSingle-9-1 (block 9, log 1) is listed before #2 TransferSingle-9-1 (block 9, log 1)",
    );
    expect(notNewestFirst([{ id: "garbage", blockNumber: 1 }, transfer(9)])).toBeUndefined();
    expect(notNewestFirst([transfer(1), { id: "garbage", blockNumber: 9 }])).toBeUndefined();
  });

  it("never has a later timestamp below an earlier one", () => {
    expect(timestampRises([transfer(9), transfer(8)])).toBeUndefined();
    expect(timestampRises([transfer(8), transfer(9)])).toBe(
      "event #2 (TransferSingle-9-0, 1700000009) is later than #1 (TransferSingle-8-0, 1700000008)",
    );
    expect(timestampRises([transfer(9), transfer(7), transfer(8)])).toMatch(/^event #3 /);
  });
});

describe("a page of a history", () => {
  const mint = transfer(1, ZERO_ADDRESS);

  it("holds no more than perPage events", () => {
    expect(historyPageProblems(historyOf([["perPage", "1"]]), [transfer(2), mint])).toEqual([
      "page 1 holds 2 events; perPage is 1",
    ]);
    expect(historyPageProblems(historyOf([["perPage", "2"]]), [transfer(2), mint])).toEqual([]);
  });

  it("names each id once", () => {
    const twice = transfer(2);
    expect(historyPageProblems(historyOf(), [twice, twice, mint])).toEqual([
      "event #1 TransferSingle-2-0 (block 2, log 0) is listed before #2 TransferSingle-2-0 (block 2, log 0): " +
        "history must be newest first",
      "id TransferSingle-2-0 appears twice",
    ]);
  });

  it("names the item asked for, its first disagreement per event", () => {
    const elsewhere = { ...transfer(2), itemCollection: OTHER, itemRef: `56-${OTHER}-3` };
    expect(historyPageProblems(historyOf(), [elsewhere, mint])).toEqual([
      `event TransferSingle-2-0: itemCollection "${OTHER}", expected "${COLLECTION}"`,
    ]);
    const stray = { ...transfer(2), itemCollection: OTHER, tokenId: 4 };
    expect(historyPageProblems(historyOf(), [stray, mint])).toEqual([
      `event TransferSingle-2-0: itemCollection "${OTHER}", expected "${COLLECTION}"`,
    ]);
  });

  it("ends in the mint when it is the last page", () => {
    expect(historyPageProblems(historyOf(), [transfer(2), transfer(1)])).toEqual([
      `the last page ends with TransferSingle-1-0 from ${SOMEONE}, not the mint (a TransferSingle/TransferBatch ` +
        `from ${ZERO_ADDRESS}); the default perPage 24`,
    ]);
    expect(historyPageProblems(historyOf([["perPage", "2"]]), [transfer(3), transfer(2)])).toEqual([]);
  });
});

describe("a page of the collection list", () => {
  const row = (address: string, fields: Record<string, unknown> = {}) => ({
    address,
    mintDate: "2025-06-01T09:44:00.000Z",
    ownerAddress: SOMEONE,
    genre: "Art",
    ...fields,
  });
  const body = {
    collections: [row(COLLECTION), row(OTHER)].sort((a, b) => a.address.localeCompare(b.address)),
    count: 2,
  };
  const asText = (_name: string, value: string) => value;
  const filtered = (name: string, value: string) =>
    listPageProblems({ params: [], query: [[name, value]] }, body, asText);

  it("holds only the rows its filters match", () => {
    expect(filtered("genre", "Art")).toEqual([]);
    expect(filtered("genre", "Gaming")).toEqual([`filtered by genre=Gaming: ${OTHER} has genre "Art", not a match`]);
  });

  it("matches addresses in any case", () => {
    expect(filtered("ownerAddress", SOMEONE.toUpperCase())).toEqual([]);
    expect(filtered("address", COLLECTION.toUpperCase())).toEqual([
      `filtered by address=${COLLECTION.toUpperCase()}: ${OTHER} has address "${OTHER}", not a match`,
    ]);
    expect(filtered("ownerAddress", OTHER)).toEqual([
      `filtered by ownerAddress=${OTHER}: ${OTHER} has ownerAddress "${SOMEONE}", not a match`,
    ]);
  });

  it("is not held to isVerified, which the rows do not show", () => {
    expect(filtered("isVerified", "true")).toEqual([]);
  });
});
