import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { accountKeys, parseGivenKeys, redactKeys } from "../../src/chain/node/keys-file.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { readOptions } from "../../src/cli/options.ts";
import { DEFAULT_OPTIONS } from "../../src/core/config.ts";

// How `npm run simulate` reads what concerns nodes it did not start: --rpc-url / RPC_URLS,
// --poll-interval / POLL_INTERVAL, --contracts / CONTRACTS_FILE, --keys / KEYS_FILE / SIM_KEYS.

describe("--rpc-url and --poll-interval", () => {
  it("takes --rpc-url once per node, or RPC_URLS comma-separated; a flag wins over the environment", () => {
    expect(
      readOptions(["--rpc-url", "http://127.0.0.1:8545", "--rpc-url", "https://node.example/v3/abc"], {}).nodeUrls,
    ).toEqual(["http://127.0.0.1:8545", "https://node.example/v3/abc"]);
    expect(readOptions([], { RPC_URLS: "http://a:1, http://b:2" }).nodeUrls).toEqual(["http://a:1", "http://b:2"]);
    expect(readOptions(["--rpc-url", "http://c:3"], { RPC_URLS: "http://a:1" }).nodeUrls).toEqual(["http://c:3"]);
    expect(readOptions([], {}).nodeUrls).toEqual([]);
  });

  it("refuses what is not an http(s) URL", () => {
    for (const url of ["ws://127.0.0.1:8545", "127.0.0.1:8545", "http://", "file:///tmp/x"]) {
      expect(() => readOptions(["--rpc-url", url], {}), url).toThrow(
        expect.objectContaining({ descriptor: START_ERRORS.USAGE }),
      );
    }
  });

  it("reads --poll-interval (or POLL_INTERVAL) in milliseconds, 50 to an hour, default 1000", () => {
    expect(readOptions([], {}).pollIntervalMs).toBe(DEFAULT_OPTIONS.pollIntervalMs);
    expect(readOptions(["--poll-interval", "250"], { POLL_INTERVAL: "9000" }).pollIntervalMs).toBe(250);
    expect(readOptions([], { POLL_INTERVAL: "9000" }).pollIntervalMs).toBe(9000);
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 4_000_000 }), (ms) => {
        const read = () => readOptions([`--poll-interval=${ms}`], {}).pollIntervalMs;
        if (ms >= 50 && ms <= 3_600_000) expect(read()).toBe(ms);
        else expect(read).toThrow(expect.objectContaining({ descriptor: START_ERRORS.USAGE }));
      }),
    );
    expect(() => readOptions(["--poll-interval", "1e3"], {})).toThrow(
      expect.objectContaining({ descriptor: START_ERRORS.USAGE }),
    );
  });
});

describe("--contracts and --keys", () => {
  it("reads --contracts (or CONTRACTS_FILE)", () => {
    const node = ["--rpc-url", "http://127.0.0.1:8545"];
    expect(readOptions([...node, "--contracts", "nodes.json"], {}).contractsFile).toBe("nodes.json");
    expect(readOptions(node, { CONTRACTS_FILE: "env.json" }).contractsFile).toBe("env.json");
    expect(readOptions(node, {}).contractsFile).toBeUndefined();
    expect(() => readOptions(["--contracts", "nodes.json"], {})).toThrow(/there is none/);
  });

  it("reads the keys from --keys, KEYS_FILE or SIM_KEYS, for the world and the nodes alike", async () => {
    const keys = { deployer: generatePrivateKey(), accounts: { studio: generatePrivateKey() } };
    const file = join(await mkdtemp(join(tmpdir(), "nft-sim-keys-")), "keys.json");
    await writeFile(file, JSON.stringify(keys));
    for (const options of [
      readOptions(["--keys", file], {}),
      readOptions([], { KEYS_FILE: file }),
      readOptions([], { SIM_KEYS: JSON.stringify(keys) }),
    ]) {
      expect(options.givenKeys?.deployer).toBe(keys.deployer);
      expect(options.keys?.get("studio")).toBe(keys.accounts.studio);
      expect(options.givenKeys?.accounts).toBe(options.keys);
    }
    expect(readOptions([], {}).givenKeys).toBeUndefined();
    expect(() => readOptions(["--keys", join(file, "missing")], {})).toThrow(/--keys .*: cannot be read \(ENOTDIR\)/);
  });

  it("says what is wrong with a keys file, never quoting a key", () => {
    const key = generatePrivateKey();
    const cases = [
      `{"deployer":"${key}",`,
      JSON.stringify({ deployer: `${key}00` }),
      JSON.stringify({ accounts: { studio: key.slice(0, 40) } }),
      JSON.stringify({ deployer: key, accounts: [key] }),
      JSON.stringify({ keys: [key] }),
    ];
    for (const text of cases) {
      let thrown: unknown;
      try {
        parseGivenKeys(text, "SIM_KEYS");
      } catch (error) {
        thrown = error;
      }
      expect(thrown, text).toMatchObject({ descriptor: START_ERRORS.KEYS_FILE_INVALID });
      expect((thrown as Error).message).not.toContain(key.slice(2, 40));
    }
  });

  it("reads an account given a list of keys as a pool: its own wallet first, every key of it a signer", () => {
    const [own, second, third, alone] = [1, 2, 3, 4].map(() => generatePrivateKey());
    const keys = parseGivenKeys(JSON.stringify({ accounts: { studio: [own, second, third], arcade: alone } }), "x");
    expect(keys.accounts).toEqual(
      new Map([
        ["studio", own],
        ["arcade", alone],
      ]),
    );
    expect(keys.pools).toEqual(new Map([["studio", [own, second, third]]]));
    expect(accountKeys(keys)).toEqual([own, second, third, alone]);
    // A list of one key is the account's one wallet, no pool.
    expect(parseGivenKeys(JSON.stringify({ accounts: { studio: [own] } }), "x").pools).toBeUndefined();
    const text = `sent by ${third!.slice(2)}`;
    expect(redactKeys(text, keys)).toBe("sent by <key>");
  });

  it("refuses an empty pool, a key that is not one and a wallet given twice, naming the field, never the key", () => {
    const key = generatePrivateKey();
    const refusal = (accounts: unknown) => {
      try {
        parseGivenKeys(JSON.stringify({ accounts }), "SIM_KEYS");
      } catch (error) {
        expect(error).toMatchObject({ descriptor: START_ERRORS.KEYS_FILE_INVALID });
        expect((error as Error).message).not.toContain(key.slice(2, 40));
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(accounts)} was taken`);
    };
    expect(refusal({ studio: [] })).toMatch(/accounts\.studio is an empty list of keys/);
    expect(refusal({ studio: [key, key.slice(0, 40)] })).toMatch(/accounts\.studio\[1\] is not a private key/);
    expect(refusal({ studio: [key], arcade: key.toUpperCase().replace("0X", "0x") })).toMatch(
      /accounts\.arcade is the same key as accounts\.studio\[0\]/,
    );
  });

  it("redacts every given key, with or without 0x, from text it prints", () => {
    const keys = parseGivenKeys(
      JSON.stringify({ deployer: generatePrivateKey(), accounts: { studio: generatePrivateKey() } }),
      "SIM_KEYS",
    );
    const studio = keys.accounts.get("studio")!;
    const text = `failed: ${keys.deployer} then ${studio.slice(2)} and ${studio.toUpperCase().replace("0X", "0x")}`;
    const redacted = redactKeys(text, keys);
    expect(redacted).toBe("failed: 0x<key> then <key> and 0x<key>");
  });
});
