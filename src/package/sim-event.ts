// One event pushed by a running simulator (GET /_sim/events), as the package's clients type it.
import type { Static } from "@sinclair/typebox";
import type { Collection } from "../schemas/collection.ts";
import type { GapEvent, RemovedEvent } from "../schemas/events.ts";
import type { ItemEvent } from "../schemas/item-event.ts";

/** The item event of one kind (the schema's branches each cover several kinds). */
type ItemEventOf<Kind, Branch = ItemEvent> = Branch extends { event: infer Kinds }
  ? Kind extends Kinds
    ? Branch & { event: Kind }
    : never
  : never;

/** One pushed event: `type` tells what `data` is (an item event of that kind, a collection, a removal, a gap). */
export type SimEvent =
  | { [Kind in ItemEvent["event"]]: { type: Kind; id: string; data: ItemEventOf<Kind> } }[ItemEvent["event"]]
  | { type: "CollectionCreated"; id: string; data: Static<typeof Collection> }
  | { type: "removed"; id: string; data: RemovedEvent }
  | { type: "gap"; id?: undefined; data: GapEvent };
