import type { ScenarioAction } from "../../schemas/scenario.ts";
import { formatOffset } from "../time.ts";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Task {
  at: number;
  seq: number;
  run(): void;
}

/** Tasks run in time order (seconds before now), each writing timeline entries at its own time. */
export class Timeline {
  readonly entries: ScenarioAction[] = [];
  #queue: Task[] = [];
  #seq = 0;
  #current = 0;

  /** Queues a task; one whose window closed (a time after now) is dropped. */
  schedule(at: number, run: () => void): void {
    if (at > 0) return;
    const task = { at, seq: this.#seq++, run };
    // Keep the queue sorted (a binary search; equal times keep scheduling order).
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.#queue[mid]!;
      if (other.at < at || (other.at === at && other.seq < task.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.#queue.splice(lo, 0, task);
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
