/**
 * What the views made of the read models, kept while what it was made of lives: of a record (an activity fact, a
 * collection's record, an item's creation) the one thing made of it, its API event or its description: records never
 * change once folded (a rewind replaces them), so neither does what is made of them; of a chain's models, what their
 * version shows (`VersionViews`: its collections, their list orders), made again once the version moves. One
 * WeakMap: nothing is kept of what is gone.
 */
const made = new WeakMap<object, unknown>();

/** What was made of `of`, or what `make` makes of it now (also when `current` says what was made is out of date). */
export function madeOf<Of extends object, Made>(of: Of, make: () => Made, current?: (made: Made) => boolean): Made {
  let found = made.get(of) as Made | undefined;
  if (found === undefined || (current !== undefined && !current(found))) made.set(of, (found = make()));
  return found;
}
