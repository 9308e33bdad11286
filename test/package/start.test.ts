import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/package/index.ts";
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
        fetch(`${sim.url}/api/v2/item/new?apiKey=demo-studio-key`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            collectionAddress: collections[0].address,
            recipient: collections[0].ownerAddress,
            chainId: 56,
            item: { name: "Client", initialSupply: 1 },
          }),
        });
      const { id } = await sim.control.snapshot();
      const minted = await (await mint()).json();
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
});
