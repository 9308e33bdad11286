import fc from "fast-check";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  stringToBytes,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import { loadAbis } from "../../src/core/abi.ts";
import { chainFacts } from "../../src/chain/deploy.ts";
import { contractMismatches } from "../chain-oracle.ts";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killSimulatorProcesses, startSimulatorProcess, type SimulatorProcess } from "../processes.ts";
import { emptyWorld } from "../../src/scenario/empty-world.ts";
import { demoWorld } from "../../src/scenario/worlds.ts";
import { indexedEventsAbi, chainLogSource } from "../../src/indexer/log-source.ts";
import { ChainIndexer } from "../../src/indexer/indexer.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import { eventually } from "../eventually.ts";
import { call, expectErrorBody, mintItem, postJson, startTestSimulator } from "../harness.ts";
import { rpc } from "../rpc.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";
import { startClashingNode } from "./plain-node.ts";
import { readWorld } from "../world-reads.ts";

// A team's shared environment: one anvil, several simulator processes on it with one contracts file.
// Whichever instance mints, every instance answers the same bytes, names and images included (the
// metadata is on chain), and an instance started later answers them too. Several processes signing
// for one developer wallet (--keys) or sending as it (impersonated) all get their mints in.

const POLL_MS = 100;
const MINTS_PER_INSTANCE = 50;
/** Anvil's development accounts come from this mnemonic. */
const MNEMONIC = "test test test test test test test test test test test junk";
const anvilKey = (addressIndex: number): Hex =>
  `0x${Buffer.from(mnemonicToAccount(MNEMONIC, { addressIndex }).getHdKey().privateKey!).toString("hex")}`;

type Instance = Pick<SimulatorProcess, "base">;
const at = (instance: Instance) => ({ url: instance.base });

async function post(instance: Instance, path: string, body: unknown) {
  return call(at(instance), path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Every answer an instance gives about chain 56: the list, each collection, each item's history and metadata, as bytes. */
async function everything(instance: Instance): Promise<string[]> {
  const { answers } = await readWorld(instance.base, { chainId: 56 });
  return [...answers].filter(([path]) => !path.startsWith("/_sim/")).map(([path, answer]) => `${path} ${answer}`);
}

/** Mints from every instance at once, `perInstance` each, interleaved; answers every answer. */
async function mintEverywhere(instances: Instance[], apiKey: string, collection: Address, recipient: Address) {
  const mints = Array.from({ length: perInstance(instances) }, (_, i) => {
    const instance = instances[i % instances.length]!;
    return mintItem(at(instance), {
      collection,
      chainId: 56,
      apiKey,
      recipient,
      item: { name: `Relic ${i}`, imageUrl: `https://img.example/relic-${i}.png`, initialSupply: 1 + (i % 3) },
    });
  });
  return Promise.all(mints);
}
const perInstance = (instances: Instance[]) => MINTS_PER_INSTANCE * instances.length;

/** All instances answer the same bytes for everything on chain 56 (each within a few polls of the last write). */
async function expectSameAnswers(instances: Instance[]): Promise<string[]> {
  return eventually(async () => {
    const [first, ...rest] = await Promise.all(instances.map(everything));
    for (const other of rest) expect(other).toEqual(first);
    return first!;
  }, 30_000);
}

describeOnAnvil("several instances on one node", () => {
  let dir: string;
  afterAll(() => killSimulatorProcesses());
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "nft-sim-team-"));
  });

  describe("signing with one keys file (--keys)", () => {
    let anvil: NodeProcess;
    let instances: SimulatorProcess[];
    let args: string[];
    const [alice, bobAddress] = [1, 2].map(
      (addressIndex) => mnemonicToAccount(MNEMONIC, { addressIndex }).address.toLowerCase() as Address,
    );

    beforeAll(async () => {
      anvil = await startAnvil({ chainId: 56 });
      const keys = join(dir, "keys.json");
      await writeFile(
        keys,
        JSON.stringify({ deployer: anvilKey(0), accounts: { alice: anvilKey(1), bob: anvilKey(2) } }),
      );
      args = [
        "--fixture",
        "none",
        "--rpc-url",
        anvil.url,
        "--keys",
        keys,
        "--contracts",
        join(dir, "keys-contracts.json"),
      ];
      args.push("--chains", "56", "--port", "0", "--no-rpc", "--no-cache", "--poll-interval", String(POLL_MS));
      // The first deploys the contracts and records them; the second attaches to what it recorded.
      const first = await startSimulatorProcess(args);
      instances = [first, await startSimulatorProcess(args)];
    });
    afterAll(async () => {
      for (const instance of instances ?? []) instance.child.kill("SIGTERM");
      await anvil?.stop("SIGKILL");
    });

    it("the first says it deployed and recorded the contracts, the second that it attached to what the file records", () => {
      const file = join(dir, "keys-contracts.json");
      const [first, second] = instances as [SimulatorProcess, SimulatorProcess];
      expect(first.output()).toMatch(
        new RegExp(`deployed at block \\d+ and recorded in ${file}: the next instances attach to them`),
      );
      expect(second.output()).toMatch(
        new RegExp(
          `attached to the contracts ${file} records \\(deployed at block \\d+\\): nothing deployed or replayed`,
        ),
      );
    });

    it("mints sent to either instance at once with one API key all land, with distinct token ids; both answer the same bytes, names and images", async () => {
      const [a, b] = instances as [SimulatorProcess, SimulatorProcess];
      const created = await post(a, "/_sim/collections", {
        chainId: 56,
        name: "Shared Relics",
        owner: "sim-alice",
        minters: ["sim-bob"],
        genre: "RPG",
        image: "https://img.example/shared.png",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const collection = created.body.address as Address;

      const answers = await mintEverywhere([a, b], "sim-bob", collection, alice);
      const statuses = answers.map((answer) => answer.status);
      expect(
        statuses.filter((status) => status !== 200),
        JSON.stringify(answers.find((x) => x.status !== 200)?.body),
      ).toEqual([]);
      const tokenIds = answers.flatMap((answer) => answer.body.tokenIds as number[]);
      expect(new Set(tokenIds).size).toBe(tokenIds.length);

      const same = await expectSameAnswers([a, b]);
      const names = same.filter((answer) => answer.includes('"name":"Relic '));
      expect(names.length).toBe(tokenIds.length);
      const shown = (await call(at(b), `/api/v2/collection/${collection}`)).body.collection;
      expect(shown).toMatchObject({ name: "Shared Relics", genre: "RPG", image: "https://img.example/shared.png" });
    });

    it("a send from the wallet outside the simulator takes the nonce it expected: the mint is signed again with the node's next one", async () => {
      const [a] = instances as [SimulatorProcess];
      const collection = (await call(at(a), "/api/v2/collection?chainId=56")).body.collections[0].address as Address;
      const mint = () =>
        mintItem(at(a), {
          collection,
          chainId: 56,
          apiKey: "sim-bob",
          recipient: alice,
          item: { name: "After An Outside Send", initialSupply: 1 },
        });
      expect((await mint()).status).toBe(200);
      const bob = privateKeyToAccount(anvilKey(2));
      const nonce = await rpc(anvil.url, "eth_getTransactionCount", [bob.address, "pending"]);
      const raw = await bob.signTransaction({
        chainId: 56,
        nonce: Number(nonce),
        to: bob.address,
        gas: 21_000n,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 1n,
      });
      await rpc(anvil.url, "eth_sendRawTransaction", [raw]);
      const again = await mint();
      expect(again.status, JSON.stringify(again.body)).toBe(200);
    });

    it("a nonce taken every time it is tried answers 409 NONCE_CONFLICT, and nothing is minted", async () => {
      const clashing = await startClashingNode(anvil.url);
      const c = await startSimulatorProcess(args.map((arg) => (arg === anvil.url ? clashing.url : arg)));
      try {
        const collection = (await call(at(c), "/api/v2/collection?chainId=56")).body.collections[0].address as Address;
        const before = await call(at(c), `/_sim/collections/${collection}/items?chainId=56`);
        const answer = await mintItem(at(c), {
          collection,
          chainId: 56,
          apiKey: "sim-bob",
          recipient: alice,
          item: { name: "Never Lands", initialSupply: 1 },
        });
        expect(answer.status).toBe(409);
        expectErrorBody(answer.body, "NONCE_CONFLICT");
        expect(answer.body.errors[0]).toMatch(
          /its nonce was taken by another writer 12 times in a row \(.*nonce too low\)/,
        );
        expect((await call(at(c), `/_sim/collections/${collection}/items?chainId=56`)).body).toEqual(before.body);
      } finally {
        c.child.kill("SIGTERM");
        await clashing.close();
      }
    });

    it("after random mints through either instance, transfers and listings sent to the node, and reverts there, a fresh instance answers as the live ones", async () => {
      const [a, b] = instances as [SimulatorProcess, SimulatorProcess];
      const abis = loadAbis();
      const contracts = JSON.parse(await readFile(join(dir, "keys-contracts.json"), "utf8")).chains["56"];
      const { marketplace } = contracts;
      const node = createPublicClient({ transport: http(anvil.url) });
      /** The contracts' own state against read models folded afresh from the node's logs (which the instances answer as). */
      const expectIndexMatchesContracts = async () => {
        const index = new ChainIndexer(chainLogSource(node, indexedEventsAbi(abis)), chainFacts(56, contracts), {
          fromBlock: contracts.deployedAt.block,
        });
        await index.sync();
        expect(await contractMismatches({ client: node, abis, models: index.models })).toEqual([]);
      };
      const wallet = createWalletClient({ account: privateKeyToAccount(anvilKey(1)), transport: http(anvil.url) });
      const collection = (await call(at(a), "/api/v2/collection?chainId=56")).body.collections[0].address as Address;
      const held = async () => {
        const { body } = await call(at(a), `/_sim/collections/${collection}/items?chainId=56`);
        return (body.items as { tokenId: number }[]).map((item) => BigInt(item.tokenId));
      };
      const balance = (tokenId: bigint) =>
        createPublicClient({ transport: http(anvil.url) }).readContract({
          address: collection,
          abi: abis.collection,
          functionName: "balanceOf",
          args: [alice, tokenId],
        });
      const toNode = async (to: Address, data: Hex) => {
        const hash = await wallet.sendTransaction({ to, data, chain: null });
        await eventually(async () => expect(await rpc(anvil.url, "eth_getTransactionReceipt", [hash])).not.toBeNull());
      };
      await toNode(
        collection,
        encodeFunctionData({ abi: abis.collection, functionName: "setApprovalForAll", args: [marketplace, true] }),
      );

      type Step =
        | { kind: "mint"; via: number; supply: number; name: string }
        | { kind: "transfer" | "list"; pick: number }
        | { kind: "revert" };
      const step: fc.Arbitrary<Step> = fc.oneof(
        fc.record({
          kind: fc.constant("mint" as const),
          via: fc.integer({ min: 0, max: 1 }),
          supply: fc.integer({ min: 1, max: 4 }),
          name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,11}$/),
        }),
        fc.record({ kind: fc.constantFrom("transfer" as const, "list" as const), pick: fc.nat() }),
        fc.constant({ kind: "revert" as const }),
      );
      const ran: Record<Step["kind"], number> = { mint: 0, transfer: 0, list: 0, revert: 0 };
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 10 }), async (steps) => {
          const snapshot = await rpc<Hex>(anvil.url, "evm_snapshot");
          let reverted = false;
          for (const next of steps) {
            if (next.kind === "mint") {
              const answer = await mintItem(at([a, b][next.via]!), {
                collection,
                chainId: 56,
                apiKey: "sim-bob",
                recipient: alice,
                item: { name: `Drawn ${next.name}`, initialSupply: next.supply },
              });
              expect(answer.status, JSON.stringify(answer.body)).toBe(200);
            } else if (next.kind === "revert") {
              if (reverted) continue;
              expect(await rpc(anvil.url, "evm_revert", [snapshot])).toBe(true);
              reverted = true;
            } else {
              const owned = [];
              for (const tokenId of await held()) if ((await balance(tokenId)) > 0n) owned.push(tokenId);
              if (owned.length === 0) continue;
              const tokenId = owned[next.pick % owned.length]!;
              const data =
                next.kind === "transfer"
                  ? encodeFunctionData({
                      abi: abis.collection,
                      functionName: "safeTransferFrom",
                      args: [alice, bobAddress, tokenId, 1n, "0x"],
                    })
                  : encodeFunctionData({
                      abi: abis.marketplace,
                      functionName: "list",
                      args: [collection, tokenId, 1n, 10n ** 15n, zeroAddress],
                    });
              await toNode(next.kind === "transfer" ? collection : marketplace, data);
            }
            ran[next.kind] += 1;
          }
          const fresh = await startSimulatorProcess(args);
          try {
            await expectSameAnswers([a, b, fresh]);
          } finally {
            fresh.child.kill("SIGTERM");
          }
          await expectIndexMatchesContracts();
        }),
        { numRuns: 3 },
      );
      console.log(`steps that ran: ${JSON.stringify(ran)}`);
      expect(ran.mint).toBeGreaterThan(0);
    }, 180_000);

    it("an instance started later attaches and answers the same bytes for every collection and item", async () => {
      const later = await startSimulatorProcess(args);
      instances.push(later);
      await expectSameAnswers(instances);
    });
  });

  describe("one API key signed for by a pool of wallets (the keys file gives the account several)", () => {
    let anvil: NodeProcess;
    let instances: SimulatorProcess[];
    let collection: Address;
    const [alice] = [1].map((addressIndex) => mnemonicToAccount(MNEMONIC, { addressIndex }).address.toLowerCase());
    const pool = [2, 3, 4, 5].map((addressIndex) => privateKeyToAccount(anvilKey(addressIndex)));
    const poolAddresses = pool.map((account) => account.address.toLowerCase() as Address);
    const setBalance = (address: string, wei: bigint) =>
      rpc(anvil.url, "anvil_setBalance", [address, `0x${wei.toString(16)}`]);
    let minted = 0;
    const mint = (instance: Instance, apiKey = "sim-bob") =>
      mintItem(at(instance), {
        collection,
        chainId: 56,
        apiKey,
        recipient: alice,
        item: { name: `Pooled ${(minted += 1)}`, initialSupply: 1 },
      });
    const minters = () =>
      Promise.all(
        poolAddresses.map((wallet) =>
          createPublicClient({ transport: http(anvil.url) }).readContract({
            address: collection,
            abi: loadAbis().collection,
            functionName: "hasRole",
            args: [keccak256(stringToBytes("MINTER_ROLE")), wallet],
          }),
        ),
      );
    /** Every mint answered 200, with distinct token ids, each signed by a wallet of the pool; answers the signers. */
    const expectAllLanded = async (answers: Awaited<ReturnType<typeof post>>[]) => {
      expect(
        answers.filter((answer) => answer.status !== 200).map((answer) => answer.body),
        "every mint answered 200",
      ).toEqual([]);
      const tokenIds = answers.flatMap((answer) => answer.body.tokenIds as number[]);
      expect(new Set(tokenIds).size).toBe(tokenIds.length);
      const signers = new Set<string>();
      for (const { body } of answers)
        signers.add(((await rpc(anvil.url, "eth_getTransactionByHash", [body.txHash])) as { from: string }).from);
      for (const signer of signers) expect(poolAddresses).toContain(signer);
      return signers;
    };

    beforeAll(async () => {
      anvil = await startAnvil({ chainId: 56 });
      const keys = join(dir, "pool-keys.json");
      const bob = [2, 3, 4, 5].map(anvilKey);
      await writeFile(keys, JSON.stringify({ deployer: anvilKey(0), accounts: { alice: anvilKey(1), bob } }));
      const args = ["--fixture", "none", "--rpc-url", anvil.url, "--keys", keys];
      args.push("--contracts", join(dir, "pool-contracts.json"), "--chains", "56", "--port", "0", "--no-rpc");
      args.push("--no-cache", "--poll-interval", String(POLL_MS));
      // The first deploys; the other two attach to what it recorded.
      const first = await startSimulatorProcess(args);
      instances = [first, ...(await Promise.all([startSimulatorProcess(args), startSimulatorProcess(args)]))];
      const created = await post(first, "/_sim/collections", {
        chainId: 56,
        name: "Pooled Relics",
        owner: "sim-alice",
        minters: ["sim-bob"],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      collection = created.body.address as Address;
    });
    afterAll(async () => {
      for (const instance of instances ?? []) instance.child.kill("SIGTERM");
      await anvil?.stop("SIGKILL");
    });

    it("each instance's banner says how many wallets it signs with, the key's pool, and what each of its wallets holds", () => {
      for (const instance of instances) {
        const output = instance.output();
        expect(output).toMatch(
          /chain 56 .*node http:\/\/127\.0\.0\.1:\d+ \(anvil\/v[\d.]+; signs with 6 wallets of the given keys/,
        );
        expect(output).toMatch(/sim-bob +bob +0x\w{40} +\(its mints signed by a pool of wallets: 4 on chain 56\)/);
        for (const wallet of poolAddresses) expect(output).toMatch(new RegExp(`${wallet}  [\\d.]+ BNB\n`));
      }
    });

    it("the collection makes every wallet of the pool a minter; mints through two instances at once with the one API key all land, no signer in any answer", async () => {
      expect(await minters()).toEqual([true, true, true, true]);
      const [a, b] = instances as [SimulatorProcess, SimulatorProcess];
      const signers = await expectAllLanded(await mintEverywhere([a, b], "sim-bob", collection, alice as Address));
      expect(signers.size).toBeGreaterThan(1);
      const answers = (await expectSameAnswers(instances)).join("\n").toLowerCase();
      for (const wallet of poolAddresses) expect(answers).not.toContain(wallet.slice(2));
    });

    it("mints through three instances at once all land, with distinct token ids, and all three answer alike", async () => {
      await expectAllLanded(await mintEverywhere(instances, "sim-bob", collection, alice as Address));
      await expectSameAnswers(instances);
    });

    it("a wallet of the pool that another writer sends from at the same time: every mint still lands", async () => {
      const outsider = createWalletClient({ account: pool[1]!, transport: http(anvil.url) });
      let sent = 0;
      let mints = true;
      const sending = (async () => {
        while (mints || sent < 20) {
          // Another writer: it takes the node's next nonce for the wallet, and tries again when one of ours took it.
          await outsider
            .sendTransaction({ to: outsider.account.address, value: 1n, chain: null })
            .then(() => (sent += 1))
            .catch(() => undefined);
        }
      })();
      const items = async () =>
        (await call(at(instances[0]!), `/_sim/collections/${collection}/items?chainId=56`)).body.items.length as number;
      const before = await items();
      const answers = await mintEverywhere(instances, "sim-bob", collection, alice as Address);
      mints = false;
      await sending;
      await expectAllLanded(answers);
      expect(sent).toBeGreaterThanOrEqual(20);
      // A mint sent again (another writer took its nonce) lands once: no item beyond those answered.
      const minted = answers.flatMap((answer) => answer.body.tokenIds as number[]).length;
      await eventually(async () => expect(await items()).toBe(before + minted));
    });

    it("revoking the key's role takes it from the whole pool and refuses the next mint on every instance with 403; granting it again gives it back to all", async () => {
      const [a, b, c] = instances as [SimulatorProcess, SimulatorProcess, SimulatorProcess];
      const revoked = await call(at(b), `/_sim/collections/${collection}/minters/sim-bob`, { method: "DELETE" });
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect(revoked.body.isMinter).toBe(false);
      expect(await minters()).toEqual([false, false, false, false]);
      for (const instance of [a, b, c]) {
        const refused = await mint(instance);
        expect(refused.status, JSON.stringify(refused.body)).toBe(403);
        expectErrorBody(refused.body, "FORBIDDEN");
      }
      const granted = await post(c, `/_sim/collections/${collection}/minters`, { apiKey: "sim-bob", chainId: 56 });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      expect(await minters()).toEqual([true, true, true, true]);
      await expectAllLanded(await Promise.all([a, b, c, a, b, c].map((instance) => mint(instance))));
    });

    it("a pool wallet without gas is left out and shown dry; with none of the pool able to pay, a mint answers 503 naming them, and so does a key's one wallet", async () => {
      const [a, b, c] = instances as [SimulatorProcess, SimulatorProcess, SimulatorProcess];
      const dry = poolAddresses[0]!;
      await setBalance(dry, 0n);
      try {
        await expectAllLanded(await Promise.all([a, b, c, a, b, c].map((instance) => mint(instance))));
        const state = await call(at(a), "/_sim/state");
        const bob = (state.body.gas as { account: string; wallets: { address: string; level: string }[] }[]).find(
          (entry) => entry.account === "bob",
        )!;
        expect(bob.wallets.map((wallet) => [wallet.address, wallet.level])).toEqual(
          poolAddresses.map((wallet) => [wallet, wallet === dry ? "dry" : "ok"]),
        );

        for (const wallet of poolAddresses) await setBalance(wallet, 0n);
        for (const instance of [a, b, c]) {
          const refused = await mint(instance);
          expect(refused.status, JSON.stringify(refused.body)).toBe(503);
          expectErrorBody(refused.body, "WALLET_UNFUNDED");
          for (const wallet of poolAddresses) expect(refused.body.message).toContain(wallet);
        }
        await setBalance(alice!, 0n);
        const alone = await mint(a, "sim-alice");
        expect(alone.status, JSON.stringify(alone.body)).toBe(503);
        expectErrorBody(alone.body, "WALLET_UNFUNDED");
        expect(alone.body.message).toContain(alice);
      } finally {
        for (const wallet of [...poolAddresses, alice!]) await setBalance(wallet, 10n ** 22n);
      }
      // Funded again, every wallet signs again (once each instance tries it anew).
      await expectAllLanded(await Promise.all([a, b, c].map((instance) => mint(instance))));
    });
  });

  describe("sending as impersonated wallets (the demo world, deployed once)", () => {
    let anvil: NodeProcess;
    let instances: SimulatorProcess[];
    let args: string[];

    beforeAll(async () => {
      // The demo world is stamped at fixed times: anvil starts before its first one.
      anvil = await startAnvil({ chainId: 56, timestamp: 1_700_000_000 });
      // Chain 56 is anvil's; the demo world's chain 137 runs in each process, apart.
      args = ["--fixture", "demo", "--rpc-url", anvil.url, "--contracts", join(dir, "demo-contracts.json")];
      args.push("--port", "0", "--no-rpc", "--no-cache", "--poll-interval", String(POLL_MS));
      args.push("--public-url", "http://team.example:3000");
      const first = await startSimulatorProcess(args);
      instances = [first, await startSimulatorProcess(args)];
    });
    afterAll(async () => {
      for (const instance of instances ?? []) instance.child.kill("SIGTERM");
      await anvil?.stop("SIGKILL");
    });

    it("mints sent to either instance at once all land; both, and one started later, answer the same bytes", async () => {
      const [a, b] = instances as [SimulatorProcess, SimulatorProcess];
      const list = await call(at(a), "/api/v2/collection?chainId=56&sortBy=name&sortDir=asc");
      const collection = list.body.collections[0].address as Address;
      const recipient = list.body.collections[0].ownerAddress as Address;
      const answers = await mintEverywhere([a, b], "demo-studio-key", collection, recipient);
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
      const tokenIds = answers.flatMap((answer) => answer.body.tokenIds as number[]);
      expect(new Set(tokenIds).size).toBe(tokenIds.length);
      await expectSameAnswers([a, b]);
      instances.push(await startSimulatorProcess(args));
      const same = await expectSameAnswers(instances);
      expect(same.filter((answer) => answer.includes('"name":"Relic ')).length).toBe(tokenIds.length);
    });
  });
});

describeOnAnvil("a node rewound by someone else between two looks", () => {
  let anvil: NodeProcess;
  let sim: Simulator;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 56 });
    // No poll comes in this test: only the simulator's own writes look at the chain.
    sim = await startTestSimulator(emptyWorld(), { nodeUrls: [anvil.url], pollIntervalMs: 3_600_000, chains: [] });
  });
  afterAll(async () => {
    await sim?.close();
    await anvil?.stop("SIGKILL");
  });

  it("a write after the rewind indexes the chain as it now is, not blocks it no longer holds", async () => {
    const { body: key } = await postJson(sim, "/_sim/api-keys", { name: "rewound" });
    const created = await postJson(sim, "/_sim/collections", { chainId: 56, name: "Rewound", owner: key.apiKey });
    const collection = created.body.address as Address;
    const mint = (name: string) =>
      mintItem(sim, {
        collection,
        chainId: 56,
        apiKey: key.apiKey,
        recipient: key.wallet,
        item: { name, initialSupply: 1 },
      });
    const snapshot = await rpc<Hex>(anvil.url, "evm_snapshot");
    expect((await mint("Gone One")).status).toBe(200);
    expect((await mint("Gone Two")).status).toBe(200);
    expect(await rpc(anvil.url, "evm_revert", [snapshot])).toBe(true);
    // Others mine meanwhile: the chain's head passes where the index's was.
    for (let i = 0; i < 4; i++) await rpc(anvil.url, "evm_mine");
    expect((await mint("Kept")).status).toBe(200);

    const chain = sim.chains.get(56)!;
    const models = await chain.read();
    const fresh = new ChainIndexer(chainLogSource(chain.publicClient, indexedEventsAbi(chain.abis)), models.facts, {
      fromBlock: chain.node!.deployedAt.block,
    });
    const items = await call(sim, `/_sim/collections/${collection}/items?chainId=56`);
    expect(items.body.items.map((item: { name: string }) => item.name)).toEqual(["Kept"]);
    await fresh.sync();
    expect([...models.items.keys()].sort()).toEqual([...fresh.models.items.keys()].sort());
  });
});

describeOnAnvil("the scenario format with keys that give its accounts pools", () => {
  let anvil: NodeProcess;
  let instance: SimulatorProcess;
  const keyOf = () => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex;
  const pools = { studio: [keyOf(), keyOf()], arcade: [keyOf(), keyOf(), keyOf()] };
  const walletsOf = (pool: Hex[]) => pool.map((key) => privateKeyToAccount(key).address.toLowerCase() as Address);

  beforeAll(async () => {
    const world = demoWorld();
    anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(world.genesisTime!.getTime() / 1000) });
    const accounts = { ...pools, guest: keyOf(), alice: keyOf(), bob: keyOf() };
    const deployer = keyOf();
    for (const key of [deployer, ...Object.values(accounts).flat()])
      await rpc(anvil.url, "anvil_setBalance", [privateKeyToAccount(key).address, "0x8ac7230489e80000"]);
    const keys = join(await mkdtemp(join(tmpdir(), "nft-sim-team-")), "keys.json");
    await writeFile(keys, JSON.stringify({ deployer, accounts }));
    instance = await startSimulatorProcess(["--fixture", "demo", "--rpc-url", anvil.url, "--keys", keys]);
  });
  afterAll(async () => {
    instance?.child.kill("SIGTERM");
    await anvil?.stop("SIGKILL");
  });

  it("every wallet of a collection's owner's and minters' pools is a minter on the node, and a mint is signed by one of the minter's", async () => {
    const { collections } = demoWorld().scenario;
    const world = (await call(at(instance), "/_sim/world")).body;
    const onNode = collections.filter((collection) => collection.chainId === 56);
    expect(onNode.length).toBeGreaterThan(0);
    const client = createPublicClient({ transport: http(anvil.url) });
    for (const collection of onNode) {
      const address = world.collections[collection.id].address as Address;
      for (const wallet of [...walletsOf(pools.studio), ...walletsOf(pools.arcade)]) {
        const minter = await client.readContract({
          address,
          abi: loadAbis().collection,
          functionName: "hasRole",
          args: [keccak256(stringToBytes("MINTER_ROLE")), wallet],
        });
        expect([collection.id, wallet, minter]).toEqual([collection.id, wallet, true]);
      }
    }
    const minted = await mintItem(at(instance), {
      collection: world.collections[onNode[0]!.id].address,
      chainId: 56,
      apiKey: "demo-arcade-key",
      recipient: walletsOf(pools.studio)[0],
      item: { name: "Pooled Scenario Relic", initialSupply: 1 },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    const tx = (await rpc(anvil.url, "eth_getTransactionByHash", [minted.body.txHash])) as { from: string };
    expect(walletsOf(pools.arcade)).toContain(tx.from);
  });
});
