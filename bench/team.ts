// `node bench/team.ts [--mints 50] [--poll 1000]`: two simulator processes on one anvil, one keys file and one
// contracts file, as a team runs a shared environment. Both are sent `--mints` mints each at once with the same
// API key; then every minted item is read on the instance that did not mint it until its name shows. Prints the
// answers by status, whether the token ids are distinct, and how long after its mint's answer each item's name
// showed on the other instance (p50, p99, max; the other instance looks at the node every `--poll` ms).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mnemonicToAccount } from "viem/accounts";
import { children, freePort, ROOT, sleep, startNode, stopAll } from "./lib/processes.ts";

const { values } = parseArgs({
  options: { mints: { type: "string", default: "50" }, poll: { type: "string", default: "1000" } },
});
const mints = Number(values.mints);
const dir = mkdtempSync(join(tmpdir(), "nft-sim-team-bench-"));
const key = (addressIndex: number) =>
  `0x${Buffer.from(mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex }).getHdKey().privateKey!).toString("hex")}`;
writeFileSync(join(dir, "keys.json"), JSON.stringify({ deployer: key(0), accounts: { alice: key(1), bob: key(2) } }));

const anvilPort = await freePort();
const node = spawn(
  `${ROOT}node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil`,
  ["--port", String(anvilPort), "--chain-id", "56"],
  { stdio: "ignore" },
);
const anvilUrl = `http://127.0.0.1:${anvilPort}`;
for (let tries = 0; !(await fetch(anvilUrl, { method: "POST" }).catch(() => undefined)) && tries < 100; tries++)
  await sleep(50);

async function instance(): Promise<string> {
  const port = await freePort();
  const args = ["src/cli/simulate.ts", "--fixture", "none", "--chains", "56", "--rpc-url", anvilUrl, "--no-rpc"];
  args.push("--keys", join(dir, "keys.json"), "--contracts", join(dir, "contracts.json"), "--no-cache");
  args.push("--poll-interval", String(values.poll), "--port", String(port));
  const child = startNode(args);
  children.add(child);
  await child.waitFor(/Ctrl-C stops/, 120_000);
  return `http://127.0.0.1:${port}`;
}
const post = async (base: string, path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any>, at: performance.now() };
};

try {
  const a = await instance();
  const b = await instance();
  const created = await post(a, "/_sim/collections", {
    chainId: 56,
    name: "Team Bench",
    owner: "sim-alice",
    minters: ["sim-bob"],
  });
  const collection = created.body.address as string;
  const recipient = mnemonicToAccount("test test test test test test test test test test test junk", {
    addressIndex: 1,
  }).address;
  const seenAfter: number[] = [];
  /** Reads the item on the instance that did not mint it until its name shows; answers how long after the mint's answer. */
  const seenOnTheOther = async (other: string, tokenId: number, name: string, answeredAt: number) => {
    for (;;) {
      const [events, described] = await Promise.all([
        fetch(`${other}/api/v2/item/events/${collection}/${tokenId}`),
        fetch(`${other}/metadata/56/team-bench/${tokenId}`),
      ]);
      await events.text();
      const shown = described.ok ? ((await described.json()) as { name: string }).name : undefined;
      if (events.ok && shown === name) return seenAfter.push(performance.now() - answeredAt);
      await sleep(5);
    }
  };
  const answers = await Promise.all(
    Array.from({ length: 2 * mints }, async (_, i) => {
      const [mint, other] = i % 2 === 0 ? [a, b] : [b, a];
      const name = `Bench Relic ${i}`;
      const answer = await post(mint, "/api/v2/item/new?apiKey=sim-bob", {
        collectionAddress: collection,
        recipient,
        chainId: 56,
        item: { name, imageUrl: `https://img.example/${i}.png`, initialSupply: 1 },
      });
      if (answer.status === 200) await seenOnTheOther(other, answer.body.tokenIds[0], name, answer.at);
      return answer;
    }),
  );
  const statuses = new Map<number, number>();
  for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const tokenIds = answers.flatMap(({ body }) => (body.tokenIds as number[] | undefined) ?? []);
  seenAfter.sort((x, y) => x - y);
  const ms = (q: number) =>
    `${Math.round(seenAfter[Math.min(seenAfter.length - 1, Math.floor(q * seenAfter.length))]!)} ms`;
  console.log(`answers: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(", ")}`);
  console.log(`token ids: ${tokenIds.length}, distinct: ${new Set(tokenIds).size}`);
  console.log(
    `named on the other instance, after the mint's answer (poll ${values.poll} ms): p50 ${ms(0.5)}, p99 ${ms(0.99)}, max ${ms(1)} (${seenAfter.length} items)`,
  );
} finally {
  await stopAll();
  node.kill("SIGKILL");
}
