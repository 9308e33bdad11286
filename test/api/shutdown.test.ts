import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { expect, it } from "vitest";

// SIGTERM under a keep-alive mint load, with slow clients holding connections open:
// the simulator accepts no mint once it has said it is stopping, answers what still
// arrives with 503 SHUTTING_DOWN, and exits 0 within the shutdown timeout.

const SHUTDOWN_TIMEOUT_S = 2;

interface Outcome {
  sentAt: number;
  status: number | "failed";
  error?: string;
}

it("SIGTERM under a keep-alive mint load: no mint accepted after the signal, exit 0 within the deadline", async () => {
  const child = spawn(process.execPath, ["src/cli/simulate.ts", "--fixture", "demo", "--port", "0", "--no-rpc", "--shutdown-timeout", String(SHUTDOWN_TIMEOUT_S)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stoppingSeenAt = Infinity;
  child.stdout.on("data", (chunk) => {
    output += chunk;
    if (output.includes("SIGTERM: stopping") && stoppingSeenAt === Infinity) stoppingSeenAt = performance.now();
  });
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  const base = output.match(/API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v2/)![1]!;
  const { collections } = (await (await fetch(`${base}/api/v2/collection?chainId=56`)).json()) as { collections: { address: string; ownerAddress: string }[] };
  const target = collections[0]!;

  // Slow clients: a request line and half the headers, then nothing.
  const slow = Array.from({ length: 3 }, () => connect(new URL(base).port as unknown as number, "127.0.0.1").on("error", () => {}));
  for (const socket of slow) socket.write("POST /api/v2/item/new?apiKey=demo-studio-key HTTP/1.1\r\nHost: 127.0.0.1\r\n");

  const outcomes: Outcome[] = [];
  let running = true;
  const mintLoop = async () => {
    while (running) {
      const sentAt = performance.now();
      try {
        const response = await fetch(`${base}/api/v2/item/new?apiKey=demo-studio-key`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ collectionAddress: target.address, recipient: target.ownerAddress, chainId: 56, item: { name: "Load", initialSupply: 1 } }),
        });
        const body = (await response.json()) as { error?: string };
        outcomes.push({ sentAt, status: response.status, error: body.error });
      } catch {
        outcomes.push({ sentAt, status: "failed" });
        if (child.exitCode !== null) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  const clients = Array.from({ length: 8 }, mintLoop);
  await new Promise((r) => setTimeout(r, 1500));

  const signalledAt = performance.now();
  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  const exitedAfterMs = performance.now() - signalledAt;
  running = false;
  await Promise.all(clients);
  slow.forEach((socket) => socket.destroy());

  expect(code).toBe(0);
  expect(exitedAfterMs).toBeLessThan((SHUTDOWN_TIMEOUT_S + 4) * 1000);
  const before = outcomes.filter((o) => o.sentAt < signalledAt);
  const after = outcomes.filter((o) => o.sentAt > stoppingSeenAt);
  expect(before.filter((o) => o.status === 200).length).toBeGreaterThan(10);
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((o) => o.status === 200)).toEqual([]);
  for (const refused of after.filter((o) => o.status !== "failed")) expect(refused).toMatchObject({ status: 503, error: "SHUTTING_DOWN" });
});
