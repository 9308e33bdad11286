import { expect, it } from "vitest";
import { applyLogs } from "../../src/indexer/apply.ts";
import { emptyModels } from "../../src/indexer/models.ts";
import { collectionVolume } from "../../src/views/collection-reads.ts";
import { chainFacts, COLLECTION, OTHER_COLLECTION } from "../indexer/logs.ts";
import { marketWorld } from "./market-world.ts";

// The world's first sale is on 2023-11-14 (UTC), its second a day later; its head two days after that.

it("a collection's USD sales per UTC day, every day from the first sale's to the head's, in cents", () => {
  expect(collectionVolume(marketWorld().models, COLLECTION)).toEqual([
    { day: "2023-11-14", volume: 7200, sales: 1 },
    { day: "2023-11-15", volume: 5, sales: 1 },
    { day: "2023-11-16", volume: 0, sales: 0 },
    { day: "2023-11-17", volume: 0, sales: 0 },
  ]);
});

it("ends on the last sale's day when the head is not known yet", () => {
  const { book } = marketWorld();
  const models = emptyModels(chainFacts());
  applyLogs(models, book.logs, book.blockTimes());
  expect(collectionVolume(models, COLLECTION).map(({ day }) => day)).toEqual(["2023-11-14", "2023-11-15"]);
});

it("no days for a collection without sales", () => {
  expect(collectionVolume(marketWorld().models, OTHER_COLLECTION)).toEqual([]);
});
