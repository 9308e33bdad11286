import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { offlineNpm, startLocalRegistry } from "./local-registry.ts";

// The registry the install test installs from: this tree's locked packages, out of npm's cache, and nothing else.
const run = promisify(execFile);
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;
const work = mkdtempSync(join(tmpdir(), "local-registry-"));
const registry = await startLocalRegistry({
  lockfile: "package-lock.json",
  cache: process.env.npm_config_cache || join(homedir(), ".npm"),
});
const npm = (args: string[], env: Record<string, string>) =>
  run("npm", args, {
    cwd: work,
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`, ...env },
  });

afterAll(async () => {
  await registry.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the local registry", () => {
  it("lists only a package's locked versions, with the lock's integrity, and serves the tarball by it", async () => {
    const { version, integrity } = lock["node_modules/viem"];
    const packument = await (await fetch(`${registry.url}viem`)).json();
    expect(Object.keys(packument.versions)).toEqual([version]);
    expect(packument["dist-tags"]).toEqual({ latest: version });
    expect(packument.versions[version].dist.integrity).toBe(integrity);
    const tarball = await fetch(packument.versions[version].dist.tarball);
    expect(tarball.status).toBe(200);
    expect(registry.fetched).toContain(`viem@${version}`);
  });

  it("answers a scoped name as npm asks for it, and 404 for another platform's tarball the cache lacks", async () => {
    const other = process.platform === "win32" ? "darwin-arm64" : "win32-x64-msvc";
    const packument = await (await fetch(`${registry.url}@nomicfoundation%2fedr-${other}`)).json();
    const { dist } = packument.versions[lock[`node_modules/@nomicfoundation/edr-${other}`].version];
    expect((await fetch(dist.tarball)).status).toBe(404);
  });

  it("answers 404 for a package the lock does not hold", async () => {
    expect((await fetch(`${registry.url}left-pad`)).status).toBe(404);
  });

  it("is what npm fetches from, and an npm sent elsewhere fails at once rather than reach the network", async () => {
    const offline = offlineNpm(registry, join(work, "cache"));
    const { stdout } = await npm(["pack", `ms@${lock["node_modules/ms"].version}`, "--json"], offline);
    expect(JSON.parse(stdout)[0].integrity).toBe(lock["node_modules/ms"].integrity);
    const escaped = await npm(["view", "ms", "version", "--fetch-retries=0"], {
      ...offline,
      npm_config_registry: "https://registry.npmjs.org/",
    }).catch((error: { stderr: string }) => error);
    expect((escaped as { stderr: string }).stderr).toMatch(/ECONNREFUSED 127\.0\.0\.1:9/);
  });
});
