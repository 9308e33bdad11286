import { afterAll, beforeAll, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/package/index.ts";
import { runShownPage } from "./run-shown.ts";

// docs/control-api.md's commands, each run in order against the demo world, as its reader would.

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ fixture: "demo", cache: false });
});

afterAll(() => sim?.close());

it("docs/control-api.md: every command it shows answers 2xx, in the order shown", async () => {
  const studio = sim.accounts.find(({ apiKey }) => apiKey === "demo-studio-key")!.wallet;
  const { collections } = (await (await fetch(`${sim.url}/api/v2/collection`)).json()) as {
    collections: { address: string; ownerAddress: string }[];
  };
  const owned = collections.find(({ ownerAddress }) => ownerAddress === studio.toLowerCase())!;
  const ran = await runShownPage("docs/control-api.md", {
    env: { S: `${sim.url}/_sim`, J: "content-type: application/json", COLLECTION: owned.address },
  });
  expect(ran.length).toBeGreaterThanOrEqual(15);
  expect(JSON.parse(ran.at(-1)!.stdout)).toMatchObject({ requests: expect.any(Array) });
  const made = (await (await fetch(`${sim.url}/api/v2/collection?name=My%20Items`)).json()) as { count: number };
  expect(made.count, "the collection the page creates").toBe(1);
  expect(await sim.control.faults(), "the page ends by removing every rule").toEqual([]);
}, 120_000);
