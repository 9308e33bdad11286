import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Savepoint } from "../../src/chain/savepoint.ts";
import { JournalFile } from "../../src/journal/journal-file.ts";
import { Undurable } from "../../src/journal/undurable.ts";
import { PowerCutDisk } from "./power-cut-disk.ts";

// The journal's group commit on a real file, through a disk that fails a sync when told to (ENOSPC, EIO). Each change
// brings a savepoint that says what happened to it: released once durable, rolled back (then released) when taken back.

function journalOnDisk() {
  const disk = new PowerCutDisk(() => 0.5);
  const path = join(mkdtempSync(join(tmpdir(), "nft-sim-undurable-")), "journal.jsonl");
  const file = JournalFile.open(disk, path, 0, true);
  const told: unknown[] = [];
  const undurable = new Undurable(file, (error) => {
    told.push(error);
    return new Error(`507: ${(error as Error).message}`);
  });
  const happened: string[] = [];
  const savepoint = (name: string): Savepoint => ({
    rollback: async () => void happened.push(`${name} rolled back`),
    release: () => void happened.push(`${name} released`),
  });
  /** A change of one line, as the journal makes one: its line written, then handed over until durable. */
  const change = (name: string) => {
    file.append(Buffer.from(`{"t":"change","name":"${name}"}\n`));
    return undurable.add(savepoint(name));
  };
  return { disk, path, file, undurable, told, happened, change };
}

describe("Undurable", () => {
  it("settles each change once a sync covers it, in order, a few syncs covering many changes", async () => {
    const { disk, file, happened, change } = journalOnDisk();
    const durable = Array.from({ length: 20 }, (_, i) => change(`c${i}`));
    await Promise.all(durable);
    expect(happened).toEqual(Array.from({ length: 20 }, (_, i) => `c${i} released`));
    expect(file.synced).toBe(file.size);
    expect(disk.counts.get("fdatasync")!).toBeLessThan(20);
  });

  it("after a failed sync, takes back every change not durable, the last first, and cuts the journal to what is on disk", async () => {
    const { disk, path, file, undurable, told, happened, change } = journalOnDisk();
    await change("kept");
    const synced = file.size;
    disk.fail("fdatasync", "EIO");
    const lost = [change("first"), change("second")];
    await expect.poll(() => told.length).toBe(1);
    expect((told[0] as NodeJS.ErrnoException).code).toBe("EIO");

    const refusal = new Error("507 Insufficient Storage");
    await undurable.takeBack(refusal);
    for (const settled of await Promise.allSettled(lost))
      expect(settled).toEqual({ status: "rejected", reason: refusal });
    expect(happened).toEqual([
      "kept released",
      "second rolled back",
      "second released",
      "first rolled back",
      "first released",
    ]);
    expect(file.size).toBe(synced);
    expect(readFileSync(path, "utf8")).toBe('{"t":"change","name":"kept"}\n');
  });

  it("syncHeld: a failed sync takes back what is not durable before it throws the refusal the journal gives", async () => {
    const { disk, file, undurable, happened, change } = journalOnDisk();
    disk.fail("fdatasync", "ENOSPC");
    const lost = change("held");
    const thrown = await undurable.syncHeld().catch((error: Error) => error);
    expect((thrown as Error).message).toMatch(/^507: ENOSPC/);
    expect(happened).toEqual(["held rolled back", "held released"]);
    await expect(lost).rejects.toBe(thrown);
    expect(file.size).toBe(0);

    disk.heal();
    const next = change("after");
    await undurable.syncHeld();
    await next;
    expect(happened.at(-1)).toBe("after released");
  });
});
