import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Fragment } from "../../src/schemas/fragment.ts";
import { Scenario } from "../../src/schemas/scenario.ts";
import { ACTION_NAMES, TIMELINE_ACTIONS } from "../../src/timeline/actions.ts";
import { ROOT } from "../architecture/source-graph.ts";

// The list every timeline action is on: the scenario format takes its entries from it, and each action on it has its
// module, its test and its place in the docs.

const moduleOf = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

describe("the timeline actions", () => {
  it("are the scenario's and the fragment's entries, in the list's order, each with `at`, `action` and the optional `block` first", () => {
    for (const schema of [Scenario, Fragment]) {
      const entries = (schema.properties.timeline.items as any).oneOf;
      expect(entries.map((entry: any) => entry.properties.action.const)).toEqual(ACTION_NAMES);
      for (const [i, action] of TIMELINE_ACTIONS.entries())
        expect(Object.keys(entries[i].properties)).toEqual(["at", "action", "block", ...Object.keys(action.fields)]);
    }
    expect(new Set(ACTION_NAMES).size).toBe(ACTION_NAMES.length);
  });

  it("name accounts only by fields they have", () => {
    for (const action of TIMELINE_ACTIONS)
      for (const field of action.accounts ?? []) expect(Object.keys(action.fields), action.name).toContain(field);
  });

  it("each have a module, a test and their place in the docs", () => {
    const formatTable = read("fixtures/README.md");
    const controlPage = read("docs/control-api.md").replace(/\s+/g, " ");
    for (const { name } of TIMELINE_ACTIONS) {
      expect(existsSync(join(ROOT, `src/timeline/${moduleOf(name)}.ts`)), name).toBe(true);
      expect(existsSync(join(ROOT, `test/timeline/${moduleOf(name)}.test.ts`)), name).toBe(true);
      const row = new RegExp(`^\\| [^|]*\`${name}\``, "m");
      expect(row.test(formatTable), `${name}: its row in fixtures/README.md's timeline table`).toBe(true);
      const listed = new RegExp(`every action the format has \\([^)]*\\b${name}\\b`);
      expect(listed.test(controlPage), `${name}: in docs/control-api.md's list of actions`).toBe(true);
    }
  });
});
