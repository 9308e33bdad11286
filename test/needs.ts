import { describe, it } from "vitest";

// Tests that need what a machine may lack (Chromium, util-linux's script, anvil's platform). Where it
// is missing, a developer's machine skips them, and vitest counts them skipped; CI (CI=true, as .ci/run
// sets it) never skips: there each fails at once, saying what is missing, so a missing tool never
// passes for green.

type Describe = (name: string, body: () => void) => void;
type It = (name: string, body: () => unknown, timeout?: number) => void;

/**
 * `describe` and `it` for tests that need something. `missing` says what is missing ("/usr/bin/script
 * is missing"), or is undefined when it is there; `remedy` says how to get it.
 */
export function needing(missing: string | undefined, remedy = ""): { describe: Describe; it: It } {
  if (missing === undefined) return { describe, it };
  if (process.env.CI !== "true") return { describe: describe.skip, it: it.skip };
  const fail = () => {
    throw new Error(`${missing} and CI=true, where no test is skipped${remedy ? `: ${remedy}` : ""}`);
  };
  return {
    describe: (name) => describe(name, () => it("has what it needs", fail)),
    it: (name) => it(name, fail),
  };
}
