import { setupServer } from "msw/node";
import { createHandlers } from "nft-service-simulator/msw";
import { startSimulator, type RunningSimulator } from "nft-service-simulator";
import { expect, inject, it } from "vitest";

it("reads the default world from the simulator globalSetup started", async () => {
  const response = await fetch(`${inject("apiUrl")}/api/v2/collection?perPage=2&sortBy=name&sortDir=asc`);
  expect(response.status).toBe(200);
  const { collections, count } = await response.json();
  expect(count).toBe(35);
  expect(collections).toHaveLength(2);
  expect(inject("apiKey")).toBe("demo-studio-key");
});

it("starts a second simulator in the same process, with JSON-RPC, and closes it", async () => {
  const sim: RunningSimulator = await startSimulator({ fixture: "demo", rpc: true });
  try {
    expect(sim.url).not.toBe(inject("apiUrl"));
    expect(Object.keys(sim.rpcUrls)).toEqual(["56", "137"]);
    expect((await (await fetch(`${sim.url}/api/v2/collection`)).json()).count).toBe(5);
  } finally {
    await sim.close();
  }
});

it("answers from the shipped snapshots through MSW with the simulator's bytes", async () => {
  // The snapshots were taken with collection uris, images and websites on http://127.0.0.1:3000; this simulator writes its own URL.
  const asSnapshotted = (text: string) => text.replaceAll(`${inject("apiUrl")}/`, "http://127.0.0.1:3000/");
  const server = setupServer(...createHandlers({ baseUrl: "http://mocked.example" }));
  server.listen({ onUnhandledRequest: "bypass" });
  try {
    for (const path of ["/api/v2/collection?perPage=5&page=2&sortBy=holders", "/api/v2/collection?perPage=0"]) {
      const [mocked, real] = await Promise.all([
        fetch(`http://mocked.example${path}`),
        fetch(`${inject("apiUrl")}${path}`),
      ]);
      expect([mocked.status, await mocked.text()]).toEqual([real.status, asSnapshotted(await real.text())]);
    }
  } finally {
    server.close();
  }
});
