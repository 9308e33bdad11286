// `npm run bench:events [-- --mints 300 --rounds 3]`: how long after a mint's answer its event
// reaches a Server-Sent Events listener and a webhook receiver (p50/p99), against a bare Node
// server that answers, then writes the frame and posts the webhook (bench/baselines/events-floor.ts),
// measured in alternating rounds in the same run. The simulator runs as `npm run simulate` runs it
// (the bundle), with the demo world; listeners and receiver live in this process, on loopback.
// Mints go one at a time, each once the previous one's events are in, so nothing queues.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { writeFileSync } from "node:fs";
import { createParser } from "eventsource-parser";
import { children, stopAll } from "./lib/processes.ts";
import { helper, startSimulator, stop } from "./lib/sim.ts";
import { SIMULATE } from "./lib/worlds.ts";

const { values } = parseArgs({ options: { mints: { type: "string" }, rounds: { type: "string" } } });
const MINTS = Number(values.mints ?? 300);
const ROUNDS = Number(values.rounds ?? 3);

/** Where each event was heard, by transaction hash: when (performance.now()) on the stream and at the receiver. */
const heard = { sse: new Map<string, number>(), webhook: new Map<string, number>() };
let wake: (() => void) | undefined;
const noted = (into: Map<string, number>, hash: string) => {
  into.set(hash, performance.now());
  wake?.();
};

const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    noted(heard.webhook, JSON.parse(body).data.transactionHash);
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

async function listen(base: string, query: string): Promise<AbortController> {
  const controller = new AbortController();
  const response = await fetch(`${base}/_sim/events${query}`, { signal: controller.signal });
  const parser = createParser({
    onEvent: (message) => {
      const data = JSON.parse(message.data);
      if (data.transactionHash) noted(heard.sse, data.transactionHash);
    },
  });
  void (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      parser.feed(value!);
    }
  })();
  return controller;
}

interface Target {
  name: string;
  base: string;
  collection: string;
  samples: { sse: number[]; webhook: number[]; answer: number[] };
}

async function prepare(name: string, base: string): Promise<Target> {
  const list = await (await fetch(`${base}/api/v2/collection?chainId=56&perPage=1`)).json().catch(() => undefined);
  const collection: string = list?.collections?.[0]?.address ?? "0x0000000000000000000000000000000000000001";
  const added = await fetch(`${base}/_sim/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: receiverUrl, collection }),
  });
  if (!added.ok) throw new Error(`${name}: webhook refused: ${await added.text()}`);
  await listen(base, `?collection=${collection}`);
  return { name, base, collection, samples: { sse: [], webhook: [], answer: [] } };
}

async function mintOnce(target: Target): Promise<void> {
  const sent = performance.now();
  const response = await fetch(`${target.base}/api/v2/item/new?apiKey=demo-studio-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      collectionAddress: target.collection,
      recipient: "0x00000000000000000000000000000000000000aa",
      chainId: 56,
      item: { name: "Heard", initialSupply: 1 },
    }),
  });
  const { txHash } = (await response.json()) as { txHash: string };
  const answered = performance.now();
  if (!response.ok || !txHash) throw new Error(`${target.name}: mint answered ${response.status}`);
  const deadline = answered + 10_000;
  while (!(heard.sse.has(txHash) && heard.webhook.has(txHash)) && performance.now() < deadline)
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, 50);
    });
  if (!heard.sse.has(txHash) || !heard.webhook.has(txHash))
    throw new Error(`${target.name}: ${txHash} not heard in 10 s`);
  target.samples.answer.push(answered - sent);
  target.samples.sse.push(heard.sse.get(txHash)! - answered);
  target.samples.webhook.push(heard.webhook.get(txHash)! - answered);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

try {
  const started = performance.now();
  const sim = await startSimulator({ name: "demo world", scale: 1, args: [...SIMULATE, "--fixture", "demo"] });
  const floorHelper = helper("bench/baselines/events-floor.ts");
  const { port } = await floorHelper.next("listening");
  const targets = [await prepare("floor", `http://127.0.0.1:${port}`), await prepare("simulator", sim.base)];
  for (const target of targets) for (let i = 0; i < 20; i++) await mintOnce(target); // warm-up
  for (const target of targets) target.samples = { sse: [], webhook: [], answer: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const target of targets) for (let i = 0; i < MINTS / ROUNDS; i++) await mintOnce(target);
  const rows = targets.map(({ name, samples }) => ({
    name,
    mints: samples.sse.length,
    answer: { p50: quantile(samples.answer, 0.5), p99: quantile(samples.answer, 0.99) },
    sse: {
      p50: quantile(samples.sse, 0.5),
      p99: quantile(samples.sse, 0.99),
      before: samples.sse.filter((v) => v < 0).length,
    },
    webhook: { p50: quantile(samples.webhook, 0.5), p99: quantile(samples.webhook, 0.99) },
  }));
  console.log(
    `${MINTS} mints per target in ${ROUNDS} alternating rounds, ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(
    "| target | mint answer p50 / p99 | answer → SSE event p50 / p99 | events before the answer | answer → webhook p50 / p99 |",
  );
  console.log("|---|---:|---:|---:|---:|");
  for (const row of rows)
    console.log(
      `| ${row.name} | ${ms(row.answer.p50)} / ${ms(row.answer.p99)} | ${ms(row.sse.p50)} / ${ms(row.sse.p99)} | ${row.sse.before} of ${row.mints} | ${ms(row.webhook.p50)} / ${ms(row.webhook.p99)} |`,
    );
  writeFileSync(
    "bench/results/events.json",
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
  await stop(sim.child);
} finally {
  receiver.close();
  await stopAll();
  void children;
}
