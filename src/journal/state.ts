import type { JournalEntry } from "./entries.ts";
import { Journal, JournalError } from "./journal.ts";

/** What a journal is replayed onto and then records (the control API): the journal knows nothing more of it. */
export interface Journaled {
  /** Replays the entries; answers how many recorded writes failed again. */
  replay(entries: JournalEntry[]): Promise<number>;
  /** Records every acknowledged change into `journal` from now on. */
  attach(journal: Journal): void;
}

export interface RestoredState {
  journal: Journal;
  /** Entries replayed from the journal. */
  replayed: number;
  /** Recorded writes that failed again on replay (they had failed, mined, the first time too). */
  failedAgain: number;
}

/**
 * `--state <dir>`: replays the journal kept there onto the world just loaded, then records
 * every acknowledged change into it. A journal written on another world is refused.
 */
export async function restoreState(
  dir: string,
  worldId: string,
  control: Journaled,
  warn: (line: string) => void,
): Promise<RestoredState> {
  const { journal, entries, warning } = Journal.open(dir, { t: "world", id: worldId });
  if (warning) warn(warning);
  const [first, ...rest] = entries;
  if (first && (first.t !== "world" || first.id !== worldId)) {
    journal.close();
    throw new JournalError(
      `${dir} holds the journal of another world (${first.t === "world" ? first.id : "no world line"}), not of this ` +
        `one (${worldId}): ` +
        "start with the --fixture, --chains and --public-url (or --port) it was written with, or give another " +
        "--state directory",
    );
  }
  const failedAgain = await control.replay(rest);
  control.attach(journal);
  return { journal, replayed: rest.length, failedAgain };
}
