import { IMPORT_FLAGS } from "../../src/cli/import.ts";
import { FORK_FLAGS } from "../../src/cli/fork.ts";
import { PROXY_FLAGS } from "../../src/cli/proxy.ts";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUITE_FLAGS } from "../../src/cli/contract-test-options.ts";
import { EXPORT_FLAGS } from "../../src/cli/fixtures-export.ts";
import { SIMULATE_FLAGS } from "../../src/cli/options.ts";
import { DEFAULT_OPTIONS } from "../../src/core/config.ts";
import { NODE_MAJOR_NEEDED } from "../../src/core/node-version.ts";
import { killStarted, startShown, type Started } from "./run-shown.ts";

// What the README says the banner prints and the package needs, against the banner of `npm run simulate` as the
// README shows it, the command's defaults and flags, and package.json: the key that mints, the ports, the flags it
// names, the Node versions, the install line.

const readme = readFileSync("README.md", "utf8");
/** The README's prose with its line breaks as spaces. */
const prose = readme.replace(/\s+/g, " ");
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  name: string;
  version: string;
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string } };
  devDependencies: Record<string, string>;
};
let sim: Started;

beforeAll(async () => {
  // PORT and RPC_PORT keep it off the default ports another run may hold; the banner's lines are otherwise as shown.
  sim = await startShown("npm run simulate", { env: { PORT: "0", RPC_PORT: "0" } });
});
afterAll(async () => {
  await sim?.stop();
  killStarted();
});

/** The banner's section that starts with `heading`, to the next blank line. */
const section = (heading: string) => sim.output().split(heading)[1]!.split("\n\n")[0]!;

describe("the README and the banner", () => {
  it("name the same key as the one that mints, and the README names only keys the banner lists", () => {
    const minting = /`([\w-]+-key)` mints \(the banner prints a mint that works as is\)/.exec(prose);
    expect(minting, "the README says which key mints").not.toBeNull();
    const mint = /curl -X POST '[^']+\/api\/v2\/item\/new\?apiKey=([\w-]+)'/.exec(sim.output());
    expect(mint?.[1], "the banner's mint").toBe(minting![1]);
    const listed = section("API keys (developer wallets):");
    for (const [, key] of readme.matchAll(/`(demo-[\w-]+-key)`/g)) expect(listed, key).toContain(`    ${key} `);
  });

  it("give the API's URL and each chain's JSON-RPC port the command's defaults print", () => {
    const { host, port, chains } = DEFAULT_OPTIONS;
    expect(readme).toContain(`\`http://${host}:${port}/api/v2\``);
    expect(readme).toContain(`\`http://${host}:${port}/\` is the dashboard`);
    const ports = /chain (\d+) on `:(\d+)`, (\d+) on `:(\d+)`/.exec(prose);
    expect(ports?.slice(1).map(Number)).toEqual(chains.flatMap(({ chainId, rpcPort }) => [chainId, rpcPort]));
    // The banner lists those chains, in that order, each with its JSON-RPC URL on the API's host.
    const listed = [...sim.output().matchAll(/chain (\d+) +[^:]+: http:\/\/([\d.]+):\d+/g)];
    expect(listed.map(([, chainId, on]) => [Number(chainId), on])).toEqual(
      chains.map(({ chainId }) => [chainId, host]),
    );
    expect(sim.base).toMatch(new RegExp(`^http://${host.replaceAll(".", "\\.")}:\\d+$`));
  });

  it("name the flags that move or drop the JSON-RPC ports, and every flag the README names is one a command takes", () => {
    for (const flag of ["--rpc-port", "--no-rpc"]) {
      expect(readme).toContain(`\`${flag}`);
      expect(sim.output()).toContain(flag);
    }
    const taken = new Set([
      ...Object.keys(SIMULATE_FLAGS),
      ...Object.keys(SUITE_FLAGS),
      ...Object.keys(EXPORT_FLAGS),
      ...Object.keys(PROXY_FLAGS),
      ...Object.keys(IMPORT_FLAGS),
      ...Object.keys(FORK_FLAGS),
    ]);
    const npmOwn = new Set(["save-dev", "pack-destination"]);
    const named = [...readme.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map(([, flag]) => flag!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((flag) => !taken.has(flag) && !npmOwn.has(flag))).toEqual([]);
  });

  it("say the banner stops on Ctrl-C", () => {
    expect(prose).toContain("Ctrl-C stops it");
    expect(sim.output()).toContain("Ctrl-C stops.");
  });
});

describe("the README and package.json", () => {
  it("agree on the Node versions: npm on 20, 22 or 24; the code on the project's Node 22, the package on 22 or later", () => {
    expect(prose).toContain("You need Node.js 20, 22 or 24 with npm");
    expect(manifest.devEngines.runtime).toMatchObject({ name: "node", version: ">=20" });
    expect(prose).toContain("the project brings its own Node 22");
    expect(manifest.devDependencies.node).toMatch(new RegExp(`^\\^${NODE_MAJOR_NEEDED}\\.`));
    expect(prose).toContain(`It runs on Node.js ${NODE_MAJOR_NEEDED} or later`);
    expect(manifest.engines.node).toBe(`>=${NODE_MAJOR_NEEDED}`);
  });

  it("install the tarball npm pack writes, from where the first line puts it, whatever the clone's folder is called", () => {
    const block = /```sh\n(npm pack[^\n]*)\n(npm install --save-dev [^\n]*)\n```/.exec(readme);
    expect(block, "the README's install block").not.toBeNull();
    const [, pack, install] = block!;
    const destination = /--pack-destination (\S+)/.exec(pack!)?.[1];
    expect(destination, "npm pack names where the tarball goes").toBeDefined();
    expect(install).toBe(`npm install --save-dev ${destination}/${manifest.name}-${manifest.version}.tgz`);
    expect(install).not.toContain("..");
  });
});
