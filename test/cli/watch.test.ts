import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { START_ERRORS } from "../../src/core/errors.ts";
import { readOptions } from "../../src/cli/options.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { rpc } from "../rpc.ts";

// `npm run simulate -- --watch`: the world is reloaded when its scenario file changes, on the same
// ports, as a reset to the edited world; a scenario with an error keeps the running world.

const dirs: string[] = [];
afterAll(async () => {
  killSimulatorProcesses();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("--watch", () => {
  it("reloads the edited world on the same ports (a reset), and keeps the running world when the edit has an error", async () => {
    const dir = await mkdtemp(join(tmpdir(), "watch-"));
    dirs.push(dir);
    const file = join(dir, "world.json");
    await copyFile("fixtures/demo-world.json", file);
    const sim = await startSimulatorProcess([
      "--fixture",
      file,
      "--port",
      "0",
      "--rpc-port",
      "0",
      "--cache",
      join(dir, "cache"),
      "--watch",
    ]);
    const names = async () =>
      (
        (await (await fetch(`${sim.base}/api/v2/collection?perPage=100&sortBy=name&sortDir=asc`)).json())
          .collections as { name: string }[]
      ).map((c) => c.name);
    const before = await names();
    expect(before).toContain("Dragon Riders");
    expect(sim.output(), "the start says what it watches").toMatch(/--watch: watching .*\.json; saving it reloads/);
    // A change made at run time, which a reload resets.
    expect(
      (
        await fetch(`${sim.base}/_sim/api-keys`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "made-before" }),
        })
      ).status,
    ).toBe(200);
    const original = await readFile(file, "utf8");

    await writeFile(file, original.replace('"name":"Dragon Riders"', '"name":"Dragon Riders Reborn"'));
    await sim.waitFor("--watch: reloaded");
    expect(await names()).toEqual(
      before.map((name) => (name === "Dragon Riders" ? "Dragon Riders Reborn" : name)).sort(),
    );
    expect(
      (
        await fetch(`${sim.base}/_sim/api-keys`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "made-before" }),
        })
      ).status,
      "the reload reset the world: the key is new again",
    ).toBe(200);
    const [rpcUrl] = [...sim.rpcUrls.values()];
    expect(await rpc(rpcUrl!, "eth_chainId"), "the JSON-RPC port is the same").toMatch(/^0x/);

    await writeFile(file, original.replace('"chainId":137', '"chainId":"x"'));
    await sim.waitFor("has an error; the running world stays");
    expect(sim.output()).toMatch(/collections\[\d+\]\.chainId must be integer/);
    expect(await names()).toContain("Dragon Riders Reborn");
    expect(sim.child.exitCode).toBeNull();
    // The trial beside the running world leaves its cache whole before it closes: the swap answers from it.
    expect(sim.output()).not.toMatch(/could not be cached/);
  }, 120_000);

  it("is refused where there is no scenario file to reload onto the simulator's own chains", () => {
    expect(readOptions(["--watch"], {}).watch).toBe(true);
    for (const args of [
      ["--fixture", "none"],
      ["--state", "s"],
      ["--rpc-url", "http://127.0.0.1:8545"],
    ])
      expect(() => readOptions(["--watch", ...args], {}), args.join(" ")).toThrow(
        expect.objectContaining({ descriptor: START_ERRORS.USAGE }),
      );
  });
});
