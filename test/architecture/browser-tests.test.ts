import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The browser tests: each goes through test/chromium.ts, so that in CI a missing Chromium fails
// the run instead of skipping it, and .ci/run's comment names every one of them.

const browserTests = readdirSync("test", { recursive: true })
  .map(String)
  .filter((file) => file.endsWith(".test.ts") && !file.startsWith("architecture/"))
  .filter((file) => /chromium/i.test(readFileSync(join("test", file), "utf8")))
  .sort();

/** vitest on one file, as a child process with this environment. */
function vitest(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["node_modules/vitest/vitest.mjs", "run", file, "-t", "Chromium"],
      { env, timeout: 180_000, maxBuffer: 20e6 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

describe("the browser tests", () => {
  it("all use test/chromium.ts (none skips by itself), and .ci/run names each", () => {
    expect(browserTests.length).toBeGreaterThanOrEqual(4);
    const ci = readFileSync(".ci/run", "utf8");
    for (const file of browserTests) {
      const text = readFileSync(join("test", file), "utf8");
      expect(text, file).toContain('from "../chromium.ts"');
      expect(text, file).not.toMatch(/skipIf\([^)]*(chromium|CHROMIUM)/);
      expect(ci, `.ci/run names test/${file}`).toContain(`test/${file}`);
    }
  });

  it("fail when CI=true and Chromium is missing, and are skipped outside CI", async () => {
    const { CI: _ci, ...env } = process.env;
    const missing = { ...env, CHROMIUM: "/nonexistent/chromium" };
    const inCi = await vitest("test/scenario/har.test.ts", { ...missing, CI: "true" });
    expect(inCi.code, inCi.output).toBe(1);
    expect(inCi.output).toContain("/nonexistent/chromium is missing and CI=true");
    const outside = await vitest("test/scenario/har.test.ts", missing);
    expect(outside.code, outside.output).toBe(0);
    expect(outside.output).toMatch(/skipped/);
  }, 240_000);
});
