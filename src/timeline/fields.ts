import { Type } from "@sinclair/typebox";

// The fields timeline actions are made of; the scenario format's accounts, collections and items name each other by
// `Handle` too. `hint` is not JSON Schema: the scenario loader prints it instead of a raw pattern.

/** A scenario-local name other entries refer to: an account, a collection, an item, a listing. */
export const Handle = Type.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
  hint: "a name of letters, digits, '.', '_' or '-'",
});

/** A price per unit in whole currency units, as a decimal string (e.g. "0.25"). */
export const Price = Type.String({
  pattern: "^[0-9]+(\\.[0-9]+)?$",
  hint: 'a decimal string in whole currency units, e.g. "0.25"',
});

export const Amount = Type.Integer({ minimum: 1 });

/** Which of a non-stackable item's tokens (1 = its first token id); stackable items have one token. */
export const Copy = Type.Optional(
  Type.Integer({ minimum: 1, description: "which token of a non-stackable item, 1-based (default 1)" }),
);

/** The currencies a listing may ask for. */
export const Currency = Type.Union([Type.Literal("native"), Type.Literal("stablecoin")]);
