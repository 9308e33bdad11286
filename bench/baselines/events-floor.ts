// The events baseline: a bare Node server in its own process that does what the simulator's
// event path must do at least, and nothing else: on POST /api/v2/item/new it answers a made-up
// txHash, then writes one Server-Sent Events frame to every GET /_sim/events listener and POSTs
// the same JSON, signed by standardwebhooks, to every URL given to POST /_sim/webhooks.
// The floor of "a mint's answer → its event" on this machine. `node bench/baselines/events-floor.ts`.
import { randomBytes } from "node:crypto";
import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

const listeners = new Set<ServerResponse>();
const hooks: { url: string; signer: Webhook }[] = [];
const secret = `whsec_${randomBytes(24).toString("base64")}`;
let sequence = 0;

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    if (req.method === "GET" && req.url?.startsWith("/_sim/events")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": connected\n\n");
      listeners.add(res);
      res.once("close", () => listeners.delete(res));
      return;
    }
    if (req.method === "POST" && req.url === "/_sim/webhooks") {
      hooks.push({ url: JSON.parse(body).url, signer: new Webhook(secret) });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "floor", secret }));
      return;
    }
    if (req.method === "POST" && req.url?.startsWith("/api/v2/item/new")) {
      const txHash = `0x${(++sequence).toString(16).padStart(64, "0")}`;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ txHash }));
      const data = JSON.stringify({ id: `TransferSingle-${sequence}-0`, transactionHash: txHash });
      for (const listener of listeners)
        listener.write(`event: TransferSingle\nid: TransferSingle-${sequence}-0\ndata: ${data}\n\n`);
      for (const { url, signer } of hooks) {
        const payload = `{"type":"TransferSingle","timestamp":"${new Date().toISOString()}","data":${data}}`;
        const id = `msg_${sequence}`;
        const now = new Date();
        request(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "webhook-id": id,
            "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
            "webhook-signature": signer.sign(id, now, payload),
          },
        })
          .on("response", (answer) => answer.resume())
          .on("error", () => undefined)
          .end(payload);
      }
      return;
    }
    res.writeHead(404).end();
  });
});

server.listen(0, "127.0.0.1", () => process.send!({ type: "listening", port: (server.address() as AddressInfo).port }));
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
