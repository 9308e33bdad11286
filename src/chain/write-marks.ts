import type { Hex } from "viem";

/** How many marks are kept at most: writes nobody confirms (the replay's) do not pile up. */
const KEPT = 1024;

/**
 * The index's mark (`markStale`) of each write not yet confirmed: a confirmed write nothing came after leaves the index
 * current.
 */
export class WriteMarks {
  readonly #marks = new Map<Hex, number>();

  remember(hash: Hex, mark: number): void {
    if (this.#marks.size >= KEPT) this.#marks.delete(this.#marks.keys().next().value!);
    this.#marks.set(hash, mark);
  }

  take(hash: Hex): number | undefined {
    const mark = this.#marks.get(hash);
    this.#marks.delete(hash);
    return mark;
  }
}
