/**
 * The heads before each change not durable yet (a journal's step): no block after the lowest is indexed, for its
 * change may still be taken back.
 */
export class Holds {
  readonly #heads: number[] = [];

  add(head: number): void {
    this.#heads.push(head);
  }

  remove(head: number): void {
    const at = this.#heads.indexOf(head);
    if (at !== -1) this.#heads.splice(at, 1);
  }

  /** The block an index catching up to `target` may go to: `target`, or the lowest head held below it. */
  limit(target: bigint): bigint {
    return this.#heads.reduce((lowest, head) => (BigInt(head) < lowest ? BigInt(head) : lowest), target);
  }
}
