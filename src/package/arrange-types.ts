import type { Fragment } from "../schemas/fragment.ts";
import type { ArrangeResponse } from "../schemas/world.ts";

export type { Fragment, FragmentEntry } from "../schemas/fragment.ts";

type Entry<List> = List extends readonly (infer E)[] ? E : never;
/** The handles a fragment's list of definitions names: `id`s, or account `name`s. */
type Named<List, Key extends string> =
  Entry<List> extends infer E ? (E extends { [K in Key]: infer N extends string } ? N : never) : never;
/** The handles its timeline entries of one action name (an item's addItem, a listing's list). */
type Entries<F, Action extends string, Key extends string> = F extends { timeline?: infer T }
  ? Entry<T> extends infer E
    ? E extends { action: Action } & { [K in Key]: infer N extends string }
      ? N
      : never
    : never
  : never;
type Resolved<Answer> = Answer extends Record<string, infer V> ? V : never;

/**
 * What POST /_sim/scenario answers for the fragment `F`: each handle it adds, resolved (keyed by the fragment's own
 * names, so an editor completes them), and each timeline entry's transaction.
 */
export type ArrangeAnswer<F extends Fragment = Fragment> = Omit<
  ArrangeResponse,
  "accounts" | "collections" | "items" | "listings"
> & {
  accounts: Record<
    Named<F["accounts"], "name"> | Named<F["apiKeys"], "account">,
    Resolved<ArrangeResponse["accounts"]>
  >;
  collections: Record<Named<F["collections"], "id">, Resolved<ArrangeResponse["collections"]>>;
  items: Record<Entries<F, "addItem", "item">, Resolved<ArrangeResponse["items"]>>;
  listings: Record<Entries<F, "list", "listing">, Resolved<ArrangeResponse["listings"]>>;
};
