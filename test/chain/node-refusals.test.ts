import { readFileSync } from "node:fs";
import { writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey } from "viem/accounts";
import type { Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { START_ERRORS } from "../../src/core/errors.ts";
import { addressOf } from "../../src/core/keys.ts";
import { banner } from "../../src/cli/banner.ts";
import { emptyWorld } from "../../src/scenario/empty-world.ts";
import { parseScenario } from "../../src/scenario/load.ts";
import { scenarioWorld } from "../../src/scenario/replay.ts";
import { DEMO_WORLD_FILE, demoWorld } from "../../src/scenario/worlds.ts";
import { call, mintItem, startTestSimulator } from "../harness.ts";
import { BANNER_END, bannerUrls, spawnSimulator } from "../processes.ts";
import { rpc } from "../rpc.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";
import { startPlainNode } from "./plain-node.ts";

// What the simulator refuses on a node, and how it says so: one message, exit 1, no stack, no key.

const runSimulate = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSimulator(["--port", "0", "--no-rpc", ...args], env);
const funded = (url: string, key: Hex) => rpc(url, "anvil_setBalance", [addressOf(key), "0x8ac7230489e80000"]); // 10 coins
const DEMO_ACCOUNTS = ["studio", "arcade", "guest", "alice", "bob"];

async function keysFile(keys: { deployer: Hex; accounts: Record<string, Hex> }): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "nft-sim-keys-")), "keys.json");
  await writeFile(file, JSON.stringify(keys));
  return file;
}

const freshKeys = () => ({
  deployer: generatePrivateKey(),
  accounts: Object.fromEntries(DEMO_ACCOUNTS.map((name) => [name, generatePrivateKey()])),
});
const allKeys = (keys: { deployer: Hex; accounts: Record<string, Hex> }) => [
  keys.deployer,
  ...Object.values(keys.accounts),
];
const noKeyIn = (text: string, keys: Hex[]) =>
  keys.forEach((key) => expect(text.toLowerCase()).not.toContain(key.slice(2).toLowerCase()));

describeOnAnvil("on a node that cannot set block times (a testnet's)", () => {
  let anvil: NodeProcess;
  let plain: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 97 });
    plain = await startPlainNode(anvil.url);
  });
  afterAll(async () => {
    await plain?.close();
    await anvil?.stop("SIGKILL");
  });

  it("refuses a timed world on a chain it uses in one message (exit 1, no stack trace), naming --fixture none", async () => {
    const anvil56 = await startAnvil({ chainId: 56 });
    const plain56 = await startPlainNode(anvil56.url);
    try {
      const run = runSimulate(["--fixture", "demo", "--rpc-url", plain56.url]);
      expect(await run.exited).toBe(1);
      expect(run.output()).toMatch(
        /^the node at http:\/\/127\.0\.0\.1:\d+ \(chain 56\) cannot set block times .* Start with --fixture none/m,
      );
      expect(run.output()).not.toMatch(/\n\s+at /);
    } finally {
      await plain56.close();
      await anvil56.stop("SIGKILL");
    }
  });

  it("serves a dev node whose chain the world does not use as it is (its own clock, no world), and the banner says so", async () => {
    const head = await rpc(anvil.url, "eth_getBlockByNumber", ["latest", false]);
    const sim = await startTestSimulator(demoWorld(), { nodeUrls: [anvil.url] });
    try {
      expect(sim.chains.ids().sort((a, b) => a - b)).toEqual([56, 97, 137]);
      expect((await call(sim, "/api/v2/collection?chainId=97")).body).toEqual({ collections: [], count: 0 });
      expect((await call(sim, "/api/v2/collection")).body.count).toBe(5);
      expect((await sim.chains.get(97)!.read()).head.timestamp).toBeGreaterThanOrEqual(Number(head.timestamp));
      expect(await banner(sim, { readyInMs: 0 }, "", { controlOn: true })).toMatch(
        /chain 97 .*node http:\/\/127\.0\.0\.1:\d+ \(anvil\/v[\d.]+; impersonates the world's wallets; no collections of the world on it\)/,
      );
    } finally {
      await sim.close();
    }
  });

  it("refuses to impersonate there: without keys nobody can send", async () => {
    await expect(startTestSimulator(emptyWorld(), { nodeUrls: [plain.url] })).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringContaining("give the world's keys, funded there, with --keys"),
    });
  });

  it("starts --fixture none with given keys: signs there, an API key per account, and what the node cannot do answers 409", async () => {
    const keys = freshKeys();
    for (const key of allKeys(keys)) await funded(anvil.url, key);
    const run = runSimulate(["--fixture", "none", "--rpc-url", plain.url, "--keys", await keysFile(keys)]);
    try {
      const output = await run.waitFor(BANNER_END);
      noKeyIn(output, allKeys(keys));
      expect(output).toMatch(
        new RegExp(
          `chain 97 .*node http://127\\.0\\.0\\.1:\\d+ \\(anvil/v[\\d.]+; signs with ${allKeys(keys).length} wallets of the given keys; no collections of the world on it\\)`,
        ),
      );
      expect(output).toContain(`sim-studio           studio     ${addressOf(keys.accounts.studio!)}`);
      const sim = { url: bannerUrls(output).base! };
      expect((await call(sim, "/api/v2/collection?chainId=97")).body).toEqual({ collections: [], count: 0 });
      const created = await call(sim, "/_sim/collections", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chainId: 97, name: "Testnet Swords", owner: "sim-studio", minters: ["sim-studio"] }),
      });
      expect(created.status).toBe(200);
      const tx = await rpc(anvil.url, "eth_getTransactionByHash", [created.body.txHash]);
      expect(tx.from).toBe(addressOf(keys.accounts.studio!));
      const minted = await mintItem(sim, {
        collection: created.body.address,
        chainId: 97,
        apiKey: "sim-studio",
        recipient: addressOf(keys.accounts.bob!),
        item: { name: "Sword", initialSupply: 2 },
      });
      expect(minted.status).toBe(200);
      for (const [path, body] of [
        ["/_sim/snapshots", {}],
        ["/_sim/time/advance", { seconds: 60, chainId: 97 }],
        ["/_sim/api-keys", { name: "newcomer" }],
        ["/_sim/reset", {}],
        // No evm_snapshot: a fragment could not be undone, so none is sent.
        ["/_sim/scenario", { collections: [{ id: "shields", chainId: 97, name: "Testnet Shields", owner: "studio" }] }],
      ] as const) {
        const refused = await call(sim, path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect([path, refused.status, refused.body.error]).toEqual([path, 409, "CONFLICT"]);
        expect(refused.body.errors[0]).toMatch(/chain 97|node at/);
      }
    } finally {
      await run.stop();
    }
  });
});

describeOnAnvil("with --keys on anvil", () => {
  let anvil: NodeProcess;
  const world = () => demoWorld();

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(world().genesisTime!.getTime() / 1000) });
  });
  afterAll(() => anvil?.stop("SIGKILL"));

  it("refuses unfunded wallets, naming their addresses and never a key", async () => {
    const keys = freshKeys();
    await funded(anvil.url, keys.deployer);
    const run = runSimulate(["--fixture", "demo", "--rpc-url", anvil.url, "--keys", await keysFile(keys)]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(
      /^chain 56 \(http:\/\/127\.0\.0\.1:\d+\): 5 of the wallets whose keys were given cannot pay for a transaction/m,
    );
    expect(run.output()).toContain(`${addressOf(keys.accounts.alice!)} holds 0`);
    noKeyIn(run.output(), allKeys(keys));
  });

  it("refuses a keys file that is not one without quoting it, and keys that leave an account of the world out", async () => {
    const leaked = generatePrivateKey();
    const bad = await keysFile({ deployer: leaked, accounts: { studio: `${leaked}zz` as Hex } });
    const run = runSimulate(["--fixture", "demo", "--rpc-url", anvil.url, "--keys", bad]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/--keys .*keys\.json: accounts\.studio is not a private key/);
    noKeyIn(run.output(), [leaked]);
    const partial = runSimulate(["--fixture", "demo", "--rpc-url", anvil.url], {
      SIM_KEYS: JSON.stringify({ deployer: leaked, accounts: { studio: leaked } }),
    });
    expect(await partial.exited).toBe(2);
    expect(partial.output()).toContain("have no key for 'arcade', 'guest', 'alice', 'bob'");
  });

  it("signs the world with the given keys: nothing impersonated, nothing funded", async () => {
    const keys = freshKeys();
    for (const key of allKeys(keys)) await funded(anvil.url, key);
    const run = runSimulate(["--fixture", "demo", "--rpc-url", anvil.url, "--keys", await keysFile(keys)]);
    try {
      const output = await run.waitFor(BANNER_END);
      noKeyIn(output, allKeys(keys));
      expect(output).toContain(`demo-studio-key      studio     ${addressOf(keys.accounts.studio!)}`);
      const studio = addressOf(keys.accounts.studio!);
      // The deployer is never paid: what it holds is what it was given less the gas of three deploys.
      const deployerBalance = BigInt(await rpc(anvil.url, "eth_getBalance", [addressOf(keys.deployer), "latest"]));
      expect(deployerBalance > 0n && deployerBalance < 10n ** 19n).toBe(true);
      // The node was never asked to send as the wallet: it holds no signer for it.
      await expect(rpc(anvil.url, "eth_sendTransaction", [{ from: studio, to: studio, value: "0x1" }])).rejects.toThrow(
        /No Signer available/,
      );
    } finally {
      await run.stop();
    }
  });

  it("refuses two nodes that serve the same chain id", async () => {
    await expect(startTestSimulator(world(), { nodeUrls: [anvil.url, `${anvil.url}/`] })).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringContaining("both serve chain 56"),
    });
  });
});

describeOnAnvil("a world at a height of its own, on a node already past it", () => {
  let anvil: NodeProcess;
  const demo = JSON.parse(readFileSync(DEMO_WORLD_FILE, "utf8")) as Record<string, unknown>;
  const atHeight = (startBlock: number) =>
    scenarioWorld(parseScenario({ ...demo, chains: [{ chainId: 56, startBlock }, 137] }));

  beforeAll(async () => {
    const genesis = atHeight(10).genesisTime!;
    anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(genesis.getTime() / 1000) });
    await rpc(anvil.url, "anvil_mine", ["0x14"]);
  });
  afterAll(() => anvil?.stop("SIGKILL"));

  it("is refused before anything is sent there, naming the node's head and the world's height", async () => {
    await expect(startTestSimulator(atHeight(10), { nodeUrls: [anvil.url] })).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringMatching(/the node at http:\/\/127\.0\.0\.1:\d+: chain 56 is at block 20, past block 10 /),
    });
    // Blocks cannot go back: the node keeps its head, and holds no contract of the world.
    expect(Number(await rpc(anvil.url, "eth_blockNumber", []))).toBe(20);
  });

  it("is refused at the node's head too: the world's first block would already be taken", async () => {
    await expect(startTestSimulator(atHeight(20), { nodeUrls: [anvil.url] })).rejects.toMatchObject({
      descriptor: START_ERRORS.NODE_REFUSED,
      message: expect.stringContaining("chain 56 is at block 20, past block 20"),
    });
  });
});
