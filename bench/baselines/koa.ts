// The reads baseline: a bare Koa server (one middleware, no router, no validation)
// answering, for each benchmarked URL, the very JSON the simulator answered, as an
// object Koa serializes per request like the simulator's routes do.
// The benchmark sends the bodies over IPC; `node bench/baselines/koa.ts`.
import Koa from "koa";
import type { AddressInfo } from "node:net";

const bodies = new Map<string, unknown>();
const app = new Koa();
app.use((ctx) => {
  const body = bodies.get(ctx.url);
  if (body === undefined) ctx.status = 404;
  else ctx.body = body;
});

const server = app.listen(0, "127.0.0.1", () => {
  process.send!({ type: "listening", port: (server.address() as AddressInfo).port });
});

process.on("message", (message: { type: "bodies"; bodies: Record<string, string> }) => {
  if (message.type !== "bodies") return;
  for (const [url, text] of Object.entries(message.bodies)) bodies.set(url, JSON.parse(text));
  process.send!({ type: "ready", urls: bodies.size });
});
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
