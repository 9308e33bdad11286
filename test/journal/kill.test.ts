import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

// kill -9 in the middle of a load of 200 mints, then a restart with the same --state: every mint
// that was answered 200 is in its item's history exactly once, and the rest of the world is as it was.

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill("SIGKILL")));

async function startCli(stateDir: string): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--fixture", "demo", "--port", "0", "--no-rpc", "--state", stateDir, "--public-url", "http://sim.test"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 90_000;
  while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  const base = output.match(/API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v2/)?.[1];
  if (!base) throw new Error(`the simulator did not start:\n${output}`);
  return { child, base, output: () => output };
}

interface Minted {
  chainId: number;
  collection: string;
  txHash: string;
  tokenIds: number[];
}

const json = async (url: string) => (await fetch(url)).json() as Promise<any>;

it("kill -9 during 200 mints loses no answered mint and duplicates none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "nft-sim-kill-"));
  const first = await startCli(dir);
  const historyOf = async (base: string, collection: string, tokenId: number) => json(`${base}/api/v2/item/events/${collection}/${tokenId}?perPage=100`);
  // On each chain, a collection whose item 1 has a history before the load: it must be the same after.
  const targets = await Promise.all(
    [56, 137].map(async (chainId) => {
      const { collections } = await json(`${first.base}/api/v2/collection?chainId=${chainId}`);
      for (const { address, ownerAddress } of collections) {
        if ((await historyOf(first.base, address, 1)).events) return { chainId, collection: address as string, owner: ownerAddress as string };
      }
      throw new Error(`no collection with items on chain ${chainId}`);
    }),
  );
  const untouched = await Promise.all(targets.map(({ collection }) => historyOf(first.base, collection, 1)));
  expect(untouched.every((history) => history.events.length > 0)).toBe(true);

  const answered: Minted[] = [];
  let sent = 0;
  const worker = async (n: number) => {
    while (sent < 200) {
      sent += 1;
      const target = targets[(sent + n) % 2]!;
      try {
        const response = await fetch(`${first.base}/api/v2/item/new?apiKey=demo-studio-key`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ collectionAddress: target.collection, recipient: target.owner, chainId: target.chainId, item: { name: `Load ${sent}`, initialSupply: 2 } }),
        });
        const body = (await response.json()) as Minted;
        if (response.status === 200) answered.push({ chainId: target.chainId, collection: target.collection, txHash: body.txHash, tokenIds: body.tokenIds });
      } catch {
        return;
      }
      if (answered.length >= 100 && first.child.exitCode === null) first.child.kill("SIGKILL");
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
  if (first.child.exitCode === null && first.child.signalCode === null) {
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
  }
  expect(answered.length).toBeGreaterThanOrEqual(100);
  expect(answered.length).toBeLessThan(200);

  const second = await startCli(dir);
  expect(second.output()).toMatch(/journal: \d+ changes replayed/);
  for (const mint of answered) {
    const { events } = await historyOf(second.base, mint.collection, mint.tokenIds[0]!);
    expect(events.filter((event: { transactionHash: string }) => event.transactionHash === mint.txHash), `${mint.txHash} in ${mint.collection}/${mint.tokenIds[0]}`).toHaveLength(1);
  }
  const ids = answered.map((mint) => `${mint.chainId}-${mint.tokenIds[0]}`);
  expect(new Set(ids).size).toBe(ids.length);
  expect(await Promise.all(targets.map(({ collection }) => historyOf(second.base, collection, 1)))).toEqual(untouched);
  second.child.kill("SIGTERM");
  await once(second.child, "exit");
});
