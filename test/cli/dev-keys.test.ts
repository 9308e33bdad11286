import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { parseGivenKeys } from "../../src/chain/node/keys-file.ts";

// `npm run dev-keys` (`nft-sim dev-keys`): a keys file from the accounts a dev node funds at start, said to be public.

const DEV_KEYS = resolve("src/cli/dev-keys.ts");
/** Accounts #0 to #3 as anvil and Hardhat's node list them at start. */
const FUNDED = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
];

const devKeys = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(process.execPath, [DEV_KEYS, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );

describe("npm run dev-keys", () => {
  it("writes the dev node's accounts #0 (the deployer) to #3 as studio, arcade and guest, and says they are public", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "dev-keys-")), "team-keys.json");
    const run = await devKeys(["--out", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`Wrote ${out}: the deployer and 3 accounts (studio, arcade, guest)`);
    expect(run.stderr).toContain("These keys are public");
    const keys = parseGivenKeys(readFileSync(out, "utf8"), out);
    expect([keys.deployer, ...keys.accounts.values()].map((key) => privateKeyToAccount(key!).address)).toEqual(FUNDED);
    expect([...keys.accounts.keys()]).toEqual(["studio", "arcade", "guest"]);
    expect(statSync(out).mode & 0o077, "readable by its owner only").toBe(0);
    // An existing file is kept unless --force.
    const again = await devKeys(["--out", out, "--accounts", "alice"]);
    expect(again).toMatchObject({ code: 1, stderr: `${out} exists: --force replaces it\n` });
    expect((await devKeys(["--out", out, "--accounts", "alice", "--force"])).code).toBe(0);
    expect([...parseGivenKeys(readFileSync(out, "utf8"), out).accounts.keys()]).toEqual(["alice"]);
  });

  it("names a world's accounts with --fixture, and prints to standard output without --out", async () => {
    const run = await devKeys(["--fixture", "demo"]);
    expect(run.code).toBe(0);
    const keys = parseGivenKeys(run.stdout, "stdout");
    expect([...keys.accounts.keys()]).toEqual(["studio", "arcade", "guest", "alice", "bob"]);
    expect(run.stderr).toMatch(/^The keys above: the deployer and 5 accounts/);
    const large = await devKeys(["--fixture", "default"]);
    expect(large.stderr).toContain("(anvil funds 10: start it with --accounts 45)");
  });

  it("exits 2 on a usage error, with the usage", async () => {
    for (const args of [["--frobnicate"], ["--accounts", "a", "--fixture", "demo"], ["--accounts", "a b"]]) {
      const run = await devKeys(args);
      expect(run.code, args.join(" ")).toBe(2);
    }
    writeFileSync(join(tmpdir(), "not-a-world.json"), "{");
    expect((await devKeys(["--fixture", join(tmpdir(), "not-a-world.json")])).code).toBe(1);
  });
});
