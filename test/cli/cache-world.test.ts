import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

// The world cached ahead as `npm install` (npm's prepare, scripts/cache-world.mjs) and `npm pack` do it: as a process,
// with the options a later start is given.
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "cache-world-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cacheWorld = (args: string[]) =>
  run(process.execPath, ["src/cli/cache-world.ts", ...args], { timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

it("caches the world a start with the same options loads, once; a world never cached is a usage error", async () => {
  const demo = ["--fixture", "demo", "--public-url", "http://127.0.0.1:3000", "--cache", dir];
  const first = await cacheWorld(demo);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain(`The world is cached ahead in ${dir}`);
  expect(readdirSync(dir).filter((name) => name.endsWith(".world"))).toHaveLength(1);
  const again = await cacheWorld(demo);
  expect(again).toMatchObject({ code: 0, stdout: `The world is cached in ${dir} already.\n` });
  const random = await cacheWorld(["--fixture", "demo", "--port", "0", "--cache", dir]);
  expect(random).toMatchObject({ code: 2 });
  expect(random.stderr).toContain("This world is never cached");
}, 120_000);

it("never fails an install: when the world cannot be cached, it says so on stderr and exits 0", async () => {
  const { stderr } = await run(process.execPath, ["scripts/cache-world.mjs", "--port", "http"], { timeout: 120_000 });
  expect(stderr).toContain("--port: 'http' is not a valid number");
  expect(stderr).toContain(
    "the default world could not be cached ahead (Command failed: " + `${process.execPath} --max-semi-space-size=4`,
  );
  expect(stderr).toContain("the first `npm run simulate` replays it before answering");
}, 150_000);
