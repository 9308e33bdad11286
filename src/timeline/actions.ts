import { Type, type TLiteral, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import type { TimelineAction } from "./action.ts";
import { addItem } from "./add-item.ts";
import { addToListing } from "./add-to-listing.ts";
import { burn } from "./burn.ts";
import { buy } from "./buy.ts";
import { delist } from "./delist.ts";
import { list } from "./list.ts";
import { mint } from "./mint.ts";
import { removeFromListing } from "./remove-from-listing.ts";
import { transfer } from "./transfer.ts";
import { transferBatch } from "./transfer-batch.ts";
import { updatePrice } from "./update-price.ts";

/** Every timeline action, in the order the scenario's JSON Schema lists them. */
export const TIMELINE_ACTIONS = [
  addItem,
  mint,
  transfer,
  transferBatch,
  burn,
  list,
  updatePrice,
  addToListing,
  removeFromListing,
  delist,
  buy,
] as const;

type AnyAction = (typeof TIMELINE_ACTIONS)[number];
type ActionName = AnyAction["name"];
export const ACTION_NAMES: ActionName[] = TIMELINE_ACTIONS.map((action) => action.name);

/** An action as the walks over a timeline call it: with the entry that names it. */
type AnyTimelineAction = TimelineAction<ActionName, TProperties>;

/** The action an entry names (a checked entry names one). */
export function actionOf(entry: { action: ActionName }): AnyTimelineAction {
  return TIMELINE_ACTIONS.find((action) => action.name === entry.action) as never;
}

/** Any entry may name the block its own transaction goes in (an imported world's, at the live heights). */
const AtBlock = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      "the block this entry's own transaction goes in (what it sends first, a listing's approval or a buyer's coins, " +
      "in free blocks below it, last in the block just below where that is the entry before's, else in it): empty blocks are mined up to it (if not past it); in a world's replay, " +
      "entries naming the same block one after another go in it together, at the same time",
  }),
);

type EntrySchema<At extends TSchema, A> =
  A extends TimelineAction<infer Name, infer Fields>
    ? TObject<{ at: At; action: TLiteral<Name>; block: typeof AtBlock } & Fields>
    : never;

/** Each action's entry schema, stamped by an `at` of the given schema (a scenario's, or a fragment's). */
export function timelineActions<At extends TSchema>(at: At): { [A in AnyAction as A["name"]]: EntrySchema<At, A> } {
  return Object.fromEntries(
    TIMELINE_ACTIONS.map(({ name, fields }) => [
      name,
      Type.Object({ at, action: Type.Literal(name), block: AtBlock, ...fields }, { additionalProperties: false }),
    ]),
  ) as never;
}
