import { describe, expect, it } from "vitest";
import {
  historyPageProblems,
  isMint,
  listPageProblems,
  notNewestFirst,
  timestampRises,
  ZERO_ADDRESS,
  idProblems,
  type PageRequest,
} from "../../../src/contract-suite/answers/page-rules.ts";

describe("page rules on hand-made pages, broken one way each", () => {
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
});

describe("page rules of ids, paging and the item asked for", () => {
  const ITEM = "0xc011000000000000000000000000000000000004";
  const TX = `0x${"ab".repeat(32)}`;
  const ALICE = "0xa11ce00000000000000000000000000000000006";

  /** An event of token 7 of ITEM on chain 56, as a history lists it. */
  function event(id: string, blockNumber: number, timestamp: number, fields: Record<string, unknown> = {}) {
    const [kind] = id.split("-");
    return {
      id,
      event: kind!,
      blockNumber,
      timestamp,
      transactionHash: TX,
      from: ALICE,
      chainId: 56,
      itemCollection: ITEM,
      tokenId: 7,
      itemRef: `56-${ITEM}-7`,
      ...fields,
    };
  }

  const mint = event("TransferSingle-10-0", 10, 1_000, { from: ZERO_ADDRESS });
  const history = (query: [string, string][] = []): PageRequest => ({
    params: [
      ["collectionAddress", ITEM.toUpperCase().replace("0X", "0x")],
      ["tokenId", "7"],
    ],
    query,
  });

  describe("an item's history page", () => {
    it("passes a page newest first that ends in the mint", () => {
      const sale = event(`Swapped-3-${TX}-2`, 12, 1_200);
      const sent = event("TransferSingle-11-4", 11, 1_100);
      expect(historyPageProblems(history(), [sale, sent, mint])).toEqual([]);
      // A full page need not end in the mint: more pages follow.
      expect(historyPageProblems(history([["perPage", "2"]]), [sale, sent])).toEqual([]);
    });

    it("names an empty first page, a page over perPage, and a last page without the mint", () => {
      expect(historyPageProblems(history(), [])).toEqual([
        "the first page of an item's history is empty: every item has at least its mint",
      ]);
      expect(
        historyPageProblems(history([["perPage", "1"]]), [event("TransferSingle-11-0", 11, 1_100), mint]),
      ).toContain("page 1 holds 2 events; perPage is 1");
      expect(historyPageProblems(history(), [event("TransferSingle-11-0", 11, 1_100)])).toEqual([
        `the last page ends with TransferSingle-11-0 from ${ALICE}, not the mint (a TransferSingle/TransferBatch from ${ZERO_ADDRESS}); the default perPage 24`,
      ]);
    });

    it("names events out of order, a time that rises, a repeated id, and events of another item", () => {
      const older = event("TransferSingle-9-0", 9, 900);
      expect(historyPageProblems(history(), [older, mint])).toEqual([
        "event #1 TransferSingle-9-0 (block 9, log 0) is listed before #2 TransferSingle-10-0 (block 10, log 0): history must be newest first",
        "event #2 (TransferSingle-10-0, 1000) is later than #1 (TransferSingle-9-0, 900): timestamps never increase down a history",
      ]);
      const later = event("TransferSingle-11-0", 11, 5_000);
      expect(historyPageProblems(history(), [event("TransferSingle-12-0", 12, 1_200), later, mint])).toEqual([
        "event #2 (TransferSingle-11-0, 5000) is later than #1 (TransferSingle-12-0, 1200): timestamps never increase down a history",
      ]);
      expect(historyPageProblems(history(), [mint, mint])).toContain("id TransferSingle-10-0 appears twice");
      const stray = event("TransferSingle-11-0", 11, 1_100, { tokenId: 8, itemRef: `56-${ITEM}-8` });
      expect(historyPageProblems(history(), [stray, mint])).toEqual([
        "event TransferSingle-11-0: tokenId 8, expected 7",
      ]);
      // One problem an event (its first): an event of another collection is not named three times over.
      const other = event("TransferSingle-11-0", 11, 1_100, { itemCollection: ALICE, tokenId: 8 });
      expect(historyPageProblems(history(), [other, mint])).toEqual([
        `event TransferSingle-11-0: itemCollection "${ALICE}", expected "${ITEM}"`,
      ]);
    });
  });

  describe("an event's id", () => {
    it("agrees with the event's kind, block (a transfer) or transaction (a sale)", () => {
      expect(idProblems(mint)).toEqual([]);
      expect(idProblems({ ...mint, event: "TransferBatch" })).toEqual([
        "id TransferSingle-10-0 names TransferSingle but the event is TransferBatch",
      ]);
      expect(idProblems({ ...mint, blockNumber: 11 })).toEqual([
        "id TransferSingle-10-0 names block 10 but blockNumber is 11",
      ]);
      const sale = event(`Swapped-3-${TX}-2`, 12, 1_200);
      expect(idProblems(sale)).toEqual([]);
      expect(idProblems({ ...sale, transactionHash: `0x${"cd".repeat(32)}` })[0]).toMatch(
        /^id Swapped-3-0xabab.* names transaction/,
      );
      expect(idProblems({ ...mint, id: "TransferSingle-10" })[0]).toMatch(/^id "TransferSingle-10" is neither/);
    });

    it("orders by block, then log index, newest first; a malformed id is left to its own problem", () => {
      expect(
        notNewestFirst([event("TransferSingle-10-3", 10, 0), event("TransferSingle-10-1", 10, 0)]),
      ).toBeUndefined();
      expect(notNewestFirst([event("TransferSingle-10-1", 10, 0), event("TransferSingle-10-3", 10, 0)])).toMatch(
        /^event #1 TransferSingle-10-1 \(block 10, log 1\) is listed before #2/,
      );
      expect(notNewestFirst([event("bad", 1, 0), event("TransferSingle-10-3", 10, 0)])).toBeUndefined();
    });

    it("takes a transfer from the zero address as the mint, and nothing else", () => {
      expect(isMint(mint)).toBe(true);
      expect(isMint({ event: "TransferBatch", from: ZERO_ADDRESS })).toBe(true);
      expect(isMint({ event: "TransferSingle", from: ALICE })).toBe(false);
      expect(isMint({ event: "Swapped", from: ZERO_ADDRESS })).toBe(false);
    });
  });

  describe("a page of the collection list", () => {
    const row = (address: string, mintDate: string, fields: Record<string, unknown> = {}) => ({
      address,
      mintDate,
      chainId: 56,
      ...fields,
    });
    const list = (query: [string, string][]): PageRequest => ({ params: [], query });
    const typed = (name: string, value: string) => (name === "chainId" ? Number(value) : value);

    it("passes a page as long as the count and paging leave, in the default order, its rows matching the filters", () => {
      const rows = [row("0x02", "2025-03-01"), row("0x01", "2025-02-01"), row("0x03", "2025-02-01")];
      expect(listPageProblems(list([["chainId", "56"]]), { collections: rows, count: 3 }, typed)).toEqual([]);
      expect(
        listPageProblems(
          list([
            ["page", "2"],
            ["perPage", "2"],
          ]),
          { collections: rows.slice(2), count: 3 },
          typed,
        ),
      ).toEqual([]);
    });

    it("names a short page, rows out of order or tied out of address order, and a row its filter does not match", () => {
      expect(listPageProblems(list([]), { collections: [row("0x01", "2025-01-01")], count: 2 }, typed)).toEqual([
        "page 1 holds 1 collections with count 2; the default perPage 24 means 2",
      ]);
      const [old, young] = [row("0x01", "2025-01-01"), row("0x02", "2025-05-01")];
      expect(listPageProblems(list([]), { collections: [old, young], count: 2 }, typed)[0]).toMatch(
        /^sorted by mintDate desc: #1 \(0x01, mintDate "2025-01-01"\) comes before #2/,
      );
      const tied = [row("0x02", "2025-01-01"), row("0x01", "2025-01-01")];
      expect(listPageProblems(list([]), { collections: tied, count: 2 }, typed)[0]).toContain(
        "are not in address order",
      );
      const stray = row("0x01", "2025-01-01", { chainId: 137 });
      expect(listPageProblems(list([["chainId", "56"]]), { collections: [stray], count: 1 }, typed)).toEqual([
        "filtered by chainId=56: 0x01 has chainId 137, not a match",
      ]);
    });

    it("matches an address filter in any case, and reads no filter into paging, sorting or the API key", () => {
      const owned = row("0x01", "2025-01-01", { ownerAddress: "0xabc" });
      const query: [string, string][] = [
        ["ownerAddress", "0xABC"],
        ["sortBy", "mintDate"],
        ["apiKey", "k"],
        ["isVerified", "true"],
      ];
      expect(listPageProblems(list(query), { collections: [owned], count: 1 }, typed)).toEqual([]);
      const at = row("0xab", "2025-01-01");
      expect(listPageProblems(list([["address", "0xAB"]]), { collections: [at], count: 1 }, typed)).toEqual([]);
    });
  });
});
