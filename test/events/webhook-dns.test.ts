import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { eventually } from "../eventually.ts";
import { mint, mintTargets } from "../journal/mints.ts";
import { needing } from "../needs.ts";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";

// The webhook's host is checked when it is added and again when a delivery connects: a name that resolved to loopback
// when it was added and resolves elsewhere by the time of the delivery gets nothing. The simulator runs in a mount
// namespace of its own whose /etc/hosts is a file this test writes, so the name really resolves (getaddrinfo reads
// the file on every lookup) first to 127.0.0.1, then to an address off this machine.

afterAll(killSimulatorProcesses);

const HOSTS = join(mkdtempSync(join(tmpdir(), "nft-sim-hosts-")), "hosts");
const resolveTo = (address: string) => writeFileSync(HOSTS, `127.0.0.1 localhost\n${address} receiver.test\n`);

function namespaceWhy(): string | undefined {
  try {
    execFileSync("unshare", ["--mount", "--", "true"], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `unshare --mount failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}): it needs root`;
  }
}
const { it } = needing(namespaceWhy(), "run the tests as root");

it("a name that resolves elsewhere by the time of a delivery gets nothing, and the delivery log says why", async () => {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(request.url ?? "");
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  resolveTo("127.0.0.1");
  const sim = await startSimulatorProcess(["--fixture", "demo", "--port", "0", "--no-rpc", "--no-cache"], {
    within: [
      "unshare",
      "--mount",
      "--propagation",
      "private",
      "--",
      "sh",
      "-c",
      'mount --bind "$0" /etc/hosts && exec "$@"',
      HOSTS,
    ],
  });
  try {
    const added = await fetch(`${sim.base}/_sim/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `http://receiver.test:${port}/hook`, kinds: ["TransferSingle"] }),
    });
    const webhook = (await added.json()) as { id: string };
    expect(added.status, JSON.stringify(webhook)).toBe(200);

    resolveTo("203.0.113.7");
    const [target] = await mintTargets(sim.base);
    expect((await mint(sim.base, target!, "Not Delivered")).status).toBe(200);
    const detail = await eventually(async () => {
      const body = (await (await fetch(`${sim.base}/_sim/webhooks/${webhook.id}`)).json()) as {
        stats: Record<string, number>;
        deliveries: { status: string; error?: string }[];
      };
      expect(body.deliveries[0]?.error, "a first attempt made").toBeDefined();
      return body;
    });
    expect(detail.deliveries[0]!.error).toMatch(/'receiver\.test' now resolves to 203\.0\.113\.7, not loopback/);
    expect(received).toEqual([]);
  } finally {
    sim.child.kill("SIGKILL");
    await new Promise((resolve) => server.close(resolve));
  }
}, 180_000);
