import type { Address } from "viem";
import type { ReadModels } from "../indexer/models.ts";
import type { CollectionVolume } from "../schemas/collection-reads.ts";
import { cents, saleWorth } from "./item-event.ts";

const DAY = 86_400;

/** The USD worth and count of a collection's sales per UTC day, every day from the first sale's to the head's. */
export function collectionVolume(models: ReadModels, collection: Address): CollectionVolume["days"] {
  const sales = models.sales.get(collection) ?? [];
  if (sales.length === 0) return [];
  const first = Math.floor(sales[0]!.timestamp / DAY);
  const last = Math.max(Math.floor(models.head.timestamp / DAY), Math.floor(sales.at(-1)!.timestamp / DAY));
  const days = Array.from({ length: last - first + 1 }, (_, i) => ({
    day: new Date((first + i) * DAY * 1000).toISOString().slice(0, 10),
    volume: 0,
    sales: 0,
  }));
  for (const sale of sales) {
    const day = days[Math.floor(sale.timestamp / DAY) - first]!;
    day.volume += saleWorth(models.facts, sale);
    day.sales += 1;
  }
  for (const day of days) day.volume = cents(day.volume);
  return days;
}
