import type { ScenarioAction } from "../../schemas/scenario.ts";
import { formatOffset } from "../time.ts";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Tasks run in time order (seconds before now), each writing timeline entries at its own time. */
export class Timeline {
  readonly entries: ScenarioAction[] = [];
  #queue: { at: number; run(): void }[] = [];
  #current = 0;

  /** Queues a task; one whose window closed (a time after now) is dropped. */
  schedule(at: number, run: () => void): void {
    if (at > 0) return;
    // Keep the queue sorted (a binary search; a task goes after those of its time already queued).
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#queue[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.#queue.splice(lo, 0, { at, run });
  }

  /** Runs every task in time order; tasks may schedule later ones. */
  drain(): void {
    while (this.#queue.length > 0) {
      const task = this.#queue.shift()!;
      this.#current = task.at;
      task.run();
    }
  }

  /** Writes an entry at the time of the task that is running (the only time a task writes at). */
  emit(entry: DistributiveOmit<ScenarioAction, "at">): void {
    this.entries.push({ at: formatOffset(this.#current), ...entry } as ScenarioAction);
  }
}
