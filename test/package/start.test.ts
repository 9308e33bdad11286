import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLIENT_METHODS } from "../../src/package/control-client.ts";
import { startSimulator } from "../../src/package/index.ts";
import { CONTROL_OPERATIONS } from "../../src/schemas/control-operations.ts";
import { mintItem } from "../harness.ts";
import { rpc } from "../rpc.ts";

const portOf = (url: string) => Number(new URL(url).port);

/** The port can be bound again: nothing holds it any more. */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer().once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

describe("startSimulator(), the package's main export", () => {
  it("starts two in one process, each on free ports, and close() frees every one", async () => {
    const [world, demo] = await Promise.all([startSimulator(), startSimulator({ fixture: "demo", rpc: true })]);
    try {
      expect(world.url).not.toBe(demo.url);
      expect(world.rpcUrls).toEqual({});
      expect(Object.keys(demo.rpcUrls).map(Number)).toEqual([56, 137]);
      expect(world.accounts.map((account) => account.apiKey)).toContain("demo-studio-key");
      const list = await fetch(`${world.url}/api/v2/collection?perPage=1`).then((r) => r.json());
      expect(list.count).toBe(35);
      expect((await fetch(`${demo.url}/api/v2/collection?perPage=1`).then((r) => r.json())).count).toBe(5);
      expect(await rpc(demo.rpcUrls[56]!, "eth_chainId")).toBe("0x38");
    } finally {
      await Promise.all([world.close(), demo.close(), demo.close()]);
    }
    const ports = [world.url, demo.url, ...Object.values(demo.rpcUrls)].map(portOf);
    for (const port of ports) expect(await isFree(port), `port ${port}`).toBe(true);
  });

  it("leaves nothing running: a script that starts and closes one exits by itself", async () => {
    const script = `import { startSimulator } from "./src/package/index.ts";
const sim = await startSimulator({ fixture: "demo", rpc: true });
await sim.close();
console.log("closed");`;
    // A handle left open keeps the script alive: the timeout kills it, and the test fails.
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe("closed");
  });

  it("carries a typed control client: snapshot, a mint, revert, faults, the request log", async () => {
    const sim = await startSimulator({ fixture: "demo" });
    try {
      const { collections } = await fetch(`${sim.url}/api/v2/collection?chainId=56&perPage=1`).then((r) => r.json());
      const mint = () =>
        mintItem(sim, {
          collection: collections[0].address,
          chainId: 56,
          recipient: collections[0].ownerAddress,
          item: { name: "Client", initialSupply: 1 },
        });
      const { id } = await sim.control.snapshot();
      const minted = (await mint()).body;
      await sim.control.revert(id);
      expect(
        (await fetch(`${sim.url}/api/v2/item/events/${collections[0].address}/${minted.tokenIds[0]}`)).status,
      ).toBe(404);
      await sim.control.addFault({
        match: { method: "POST", path: "/api/v2/item/new" },
        effect: { status: 503 },
        times: 1,
      });
      expect((await mint()).status).toBe(503);
      expect((await sim.control.faults())[0]!.applied).toBe(1);
      await sim.control.clearFaults();
      expect((await sim.control.requests(1))[0]).toMatchObject({ method: "DELETE", path: "/_sim/faults" });
      await expect(sim.control.revert("nope")).rejects.toMatchObject({ status: 404, body: { error: "NOT_FOUND" } });
    } finally {
      await sim.close();
    }
  });

  it("covers every operation of the control API, each sent as the route table says; sim.world and sim.arrange name what it holds", async () => {
    const sim = await startSimulator({ fixture: "demo" });
    try {
      const { control } = sim;
      const riders = sim.world.collections["dragon-riders"]!;
      expect(sim.world.accounts.bob!.address).toMatch(/^0x[0-9a-f]{40}$/);
      const arranged = await sim.arrange({
        items: [{ id: "cape", collection: "dragon-riders", name: "Cape", initialSupply: 2 }],
        timeline: [{ action: "addItem", item: "cape", by: "studio", to: "bob" }],
      });
      expect(arranged.items.cape.tokenIds).toEqual([5]);
      expect(sim.world.items.cape).toEqual({ chainId: 56, collection: riders.address, tokenIds: [5] });
      const { id } = await control.snapshot();
      await control.time();
      expect(await control.state()).toEqual({ kept: false });
      await control.advanceTime(60, 56);
      expect(Object.keys((await control.world()).items)).toContain("cape");
      const { apiKey } = await control.createApiKey("client-test");
      expect(sim.world.accounts["client-test"]).toEqual({ address: expect.any(String), apiKey });
      const created = await control.createCollection({ chainId: 137, name: "Client Shelf", owner: "demo-studio-key" });
      expect((await control.collectionItems(riders.address)).items.map((item) => item.name)).toContain("Cape");
      expect((await control.collectionItem(riders.address, 5)).name).toBe("Cape");
      await control.collectionVolume(riders.address);
      await control.grantMinter(created.address, apiKey, 137);
      await control.revokeMinter(created.address, apiKey, 137);
      const hook = await control.addWebhook({ url: "http://127.0.0.1:9/hook", kinds: ["ItemDelisted"] });
      expect((await control.webhooks()).map((webhook) => webhook.id)).toEqual([hook.id]);
      expect((await control.webhook(hook.id)).id).toBe(hook.id);
      await control.removeWebhook(hook.id);
      // The stream is answered once it ends: its opening is the proof streamEvents was sent.
      const events = control.events();
      await events.ready;
      await events.return?.();
      const fault = await control.addFault({ match: { path: "/api/v2/collection" }, effect: { latencyMs: 1 } });
      await control.faults();
      await control.removeFault(fault.id);
      await control.clearFaults();
      await control.revert(id);
      expect(sim.world.items.cape).toBeDefined();
      await control.reset();
      expect(sim.world.items.cape).toBeUndefined();
      // The log leaves reads of itself out: what they answer is the proof they were sent.
      const logged = await control.requests({ limit: 100, path: "/_sim/**" });
      expect((await control.loggedRequest(logged[0]!.id)).path).toBe("/_sim/reset");
      const sent = logged.map(({ method, path }) => `${method} ${path}`);
      const ofTheLog = new Set(["listRequests", "getRequest", "streamEvents"]);
      for (const operation of CONTROL_OPERATIONS.filter((candidate) => !ofTheLog.has(candidate.operationId))) {
        const pattern = new RegExp(`^${operation.method.toUpperCase()} ${operation.path.replace(/:\w+/g, "[^/]+")}$`);
        expect(
          sent.some((line) => pattern.test(line)),
          `${operation.operationId} (${CLIENT_METHODS[operation.operationId]}) was sent`,
        ).toBe(true);
      }
    } finally {
      await sim.close();
    }
  });
});
