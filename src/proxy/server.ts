import type { AddressInfo } from "node:net";
import { jsonHttpServer } from "../http/error-exit.ts";
import { createProxy, type ProxyOptions } from "./app.ts";
import type { Findings } from "./findings.ts";
import type { Recording } from "./record.ts";

export interface RunningProxy {
  url: string;
  findings: Findings;
  recording?: Recording;
  /** Ends the event streams and every connection, then stops listening. */
  close(): Promise<void>;
}

/** The proxy listening on loopback at `port` (0: any free one); what Node's parser refuses answered as JSON errors. */
export async function startProxy(options: ProxyOptions, port: number): Promise<RunningProxy> {
  const { app, findings, feed, recording } = createProxy(options);
  const server = jsonHttpServer(app.callback(), (error) => JSON.stringify(error.body));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    findings,
    ...(recording ? { recording } : {}),
    close: async () => {
      feed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
