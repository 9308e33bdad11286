import { afterAll, expect, it } from "vitest";
import { demoWorld } from "../../src/scenario/worlds.ts";
import type { SeedTarget, Simulator, World } from "../../src/simulator/simulator.ts";
import { call, expectErrorBody, startTestSimulator } from "../harness.ts";

// While a world is being replayed the API must not answer a half-built world,
// nor take a mint into the middle of the replay: it answers 503 until it is in.

let sim: Simulator | undefined;
afterAll(() => sim?.close());

it("answers 503 with Retry-After while the world is loading, and the whole world once it is in", async () => {
  let letSeedFinish!: () => void;
  const seeding = new Promise<SeedTarget>((resolveSeeding) => {
    const demo = demoWorld();
    const slowWorld: World = {
      ...demo,
      async seed(started) {
        await demo.seed(started);
        resolveSeeding(started);
        await new Promise<void>((resolve) => (letSeedFinish = resolve));
      },
    };
    void startTestSimulator(slowWorld).then((started) => (sim = started));
  });
  const loading = await seeding;

  for (const path of ["/api/v2/collection", "/api/v2/item/new?apiKey=demo-studio-key"]) {
    const answer = await call(
      loading,
      path,
      path.includes("new") ? { method: "POST", headers: { "content-type": "application/json" }, body: "{}" } : {},
    );
    expect(answer.status, path).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expectErrorBody(answer.body, "CHAIN_UNAVAILABLE");
  }

  letSeedFinish();
  await expect.poll(() => sim).toBeDefined();
  const { status, body } = await call(sim!, "/api/v2/collection");
  expect(status).toBe(200);
  expect(body.count).toBe(5);
});
