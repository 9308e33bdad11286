import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Closed, Named } from "./common.ts";
import { optional } from "./input.ts";
import { ItemInput } from "./item.ts";
import { timelineActions } from "../timeline/actions.ts";
import { Handle } from "../timeline/fields.ts";
import {
  actionUnion,
  ScenarioAccount,
  ScenarioApiKey,
  ScenarioCollection,
  type Scenario,
  OFFSET_TIME,
} from "./scenario.ts";

// A fragment: the scenario format applied to a running world (POST /_sim/scenario). The same
// accounts, API keys, collections, items and timeline actions, naming the world's own handles or
// new ones; no chains, no "now" (the world's own), and times from now on: `at` and `createdAt`
// are "now" when left out, or later ("+2h" moves the chain's clock forward). Fields with a
// default may be left out (the types say so), as in a scenario file.

/** A fragment's time: "now" or after it ("+2h", "+1d30m"); one before it ("-1h") is refused by name, not by pattern. */
const FragmentTime = Type.String({
  pattern: OFFSET_TIME.source,
  default: "now",
  hint: 'a time from now such as "now", "+2h" or "+1d30m"',
});

// A collection placed at an address of its own is a world's (an import's), not a running world's.
const { address: _placed, ...collectionFields } = ScenarioCollection.properties;

const FragmentCollection = Closed({
  ...optional(collectionFields, ["description", "genre", "image", "imageHash", "website", "minters", "isVerified"]),
  createdAt: Type.Optional(FragmentTime),
});

const FragmentItem = Closed(
  { id: Handle, collection: Handle, ...ItemInput.properties },
  { if: ItemInput.if, then: ItemInput.then },
);

/** One timeline entry of a fragment. */
export const FragmentAction = actionUnion(timelineActions(Type.Optional(FragmentTime)));

const list = <T extends TSchema>(entry: T) => Type.Optional(Type.Array(entry, { default: [] }));

export const Fragment = Named("ScenarioFragment", {
  $schema: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  accounts: list(ScenarioAccount),
  apiKeys: list(ScenarioApiKey),
  collections: list(FragmentCollection),
  items: list(FragmentItem),
  timeline: list(FragmentAction),
});

/** A fragment as a test writes it: every field with a default may be left out. */
export type Fragment = Static<typeof Fragment>;
export type FragmentEntry = Static<typeof FragmentAction>;

/** A fragment once checked: every default filled in, as a scenario holds it (the running world's chains and now). */
export type CheckedFragment = Omit<Scenario, "chains" | "now" | "genesis" | "name">;
