import { spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalTarget, type LocalTarget } from "../../src/cli/contract-target.ts";
import { runContractSuite } from "../../src/contract-suite/suite.ts";
import { BREAKAGES } from "../contract-suite/breakages.ts";
import { startBrokenTarget, type BrokenTarget } from "../contract-suite/broken-target.ts";
import { printedBy, type Printed } from "../processes.ts";

// `nft-sim proxy` as a user runs it: a process in front of a real simulator, and in front of a broken target.

const NFT_SIM = resolve("src/cli/nft-sim.ts");
const SECRET_HEADER_KEY = "header-secret-0123456789";
const SECRET_BEARER = "bearer-secret-0123456789";

interface ProxyProcess {
  url: string;
  printed: Printed;
  /** Stops it (SIGINT) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

const children: ChildProcess[] = [];
async function runProxy(args: string[]): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [NFT_SIM, "proxy", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const printed = printedBy(child);
  const banner = await printed.waitFor(/Ctrl-C stops/, 60_000);
  const url = /nft-sim proxy: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
  return {
    url,
    printed,
    stop: () =>
      new Promise((done) => {
        child.once("exit", (code) => done(code));
        child.kill("SIGINT");
      }),
  };
}

let local: LocalTarget;
let broken: BrokenTarget;
const dir = mkdtempSync(join(tmpdir(), "nft-sim-proxy-"));

beforeAll(async () => {
  local = await startLocalTarget();
  broken = await startBrokenTarget(local.sim.url, BREAKAGES.listWithoutHolders);
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await broken?.close();
  await local?.close();
});

/** The status of a GET sent with these headers (fetch will not send another Host). */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) =>
    get(url, { headers }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    }).on("error", fail),
  );
}

/** The first `violation` event on the proxy's /_sim/events after `send` runs. */
async function violationEvent(url: string, send: () => Promise<unknown>): Promise<string> {
  const stream = await fetch(`${url}/_sim/events`);
  const reader = stream.body!.getReader();
  await send();
  let text = "";
  while (!/event: violation\n[^]*?\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return /event: violation\n[^]*?\n\n/.exec(text)![0];
}

describe("nft-sim proxy", () => {
  it("in front of the simulator, reports no violation on the contract suite's traffic, writes and all", async () => {
    const junit = join(dir, "clean.xml");
    const proxy = await runProxy(["--upstream", local.sim.url, "--junit", junit]);
    const report = await runContractSuite({ ...local.target, baseUrl: proxy.url });
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(await proxy.stop()).toBe(0);
    expect(proxy.printed.output()).not.toContain("violation:");
    expect(readFileSync(junit, "utf8")).toMatch(/failures="0"/);
    expect(readFileSync(junit, "utf8")).toContain('name="proxy listCollections"');
  }, 120_000);

  it("in front of a broken target, tells each violation everywhere, the API key and other secrets masked", async () => {
    const apiKey = local.target.apiKey!;
    const junit = join(dir, "broken.xml");
    const proxy = await runProxy(["--upstream", broken.url, "--junit", junit]);
    const event = await violationEvent(proxy.url, () =>
      fetch(`${proxy.url}/api/v2/collection?apiKey=${apiKey}`, {
        headers: { ALTURA_API_KEY: SECRET_HEADER_KEY, authorization: `Bearer ${SECRET_BEARER}` },
      }),
    );
    expect(event).toMatch(/missing required field 'holders'/);
    // The secrets of the headers, sent again where the log shows text (a query): masked there as they were noted.
    const echoed = await fetch(`${proxy.url}/api/v2/collection?name=${SECRET_HEADER_KEY}&genre=${SECRET_BEARER}`, {
      headers: { ALTURA_API_KEY: SECRET_HEADER_KEY, authorization: `Bearer ${SECRET_BEARER}` },
    });
    expect(echoed.status).toBe(200);
    const log = await (await fetch(`${proxy.url}/_sim/requests`)).json();
    const entry = (log as { requests: { id: number; path: string; violations?: string[] }[] }).requests.find(
      (logged) => logged.path === "/api/v2/collection" && logged.violations !== undefined,
    );
    expect(entry!.violations!.join("\n")).toMatch(/missing required field 'holders'/);
    const detail = await (await fetch(`${proxy.url}/_sim/requests/${entry!.id}`)).text();
    expect(await proxy.stop()).toBe(1);
    const stderr = proxy.printed.output();
    expect(stderr).toMatch(/^violation: #\d+ GET \/api\/v2\/collection\?apiKey=\S+ answered 200: .*'holders'/m);
    const written = readFileSync(junit, "utf8");
    expect(written).toMatch(/<failure message="[^"]*holders/);
    for (const text of [stderr, event, JSON.stringify(log), detail, written])
      for (const secret of [apiKey, SECRET_HEADER_KEY, SECRET_BEARER]) expect(text).not.toContain(secret);
    expect(stderr).toContain(`apiKey=${apiKey.slice(0, 4)}`);
  }, 120_000);

  it("--strict answers 502 with the violations in the error body instead of the broken answer", async () => {
    const proxy = await runProxy(["--upstream", broken.url, "--strict"]);
    const answer = await fetch(`${proxy.url}/api/v2/collection`);
    const body = (await answer.json()) as { error: string; errors: string[] };
    const passed = await fetch(`${proxy.url}/api/v2/collection/0x0000000000000000000000000000000000000001`);
    expect(await proxy.stop()).toBe(1);
    expect(answer.status).toBe(502);
    expect(body.error).toBe("CONTRACT_VIOLATION");
    expect(body.errors.join("\n")).toMatch(/missing required field 'holders'/);
    expect(passed.status).toBe(404);
  }, 120_000);

  it("keeps the access policy: a write from a foreign origin is refused, not passed on", async () => {
    const proxy = await runProxy(["--upstream", broken.url]);
    const before = broken.requests.length;
    const refused = await fetch(`${proxy.url}/api/v2/item/new?apiKey=x`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    const control = await statusOf(`${proxy.url}/_sim/requests`, { host: "evil.example" });
    expect(await proxy.stop()).toBe(0);
    expect(refused.status).toBe(403);
    expect(control).toBe(403);
    expect(broken.requests.length).toBe(before);
  }, 120_000);
});
