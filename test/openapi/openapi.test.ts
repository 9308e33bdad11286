import type { Control } from "../../src/control/control.ts";
import { controlRoutes } from "../../src/control/routes.ts";
import { PushedEvents } from "../../src/events/events.ts";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Router from "@koa/router";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, itInChromium } from "../chromium.ts";
import { mintItem, startDemo } from "../harness.ts";
import { buildOpenApiDocument, openApiPath } from "../../src/openapi/document.ts";
import { Pipeline, type PipelineDeps } from "../../src/pipeline/pipeline.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";

type Doc = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>>;
  components: { schemas: Record<string, unknown> };
};
const document = buildOpenApiDocument() as unknown as Doc;

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes exactly the /api/v2, /_sim and /images routes the server has, with their methods", () => {
    const router = new Router();
    controlRoutes(
      router,
      { parts: {}, faults: {}, requests: {} } as unknown as Control,
      new PushedEvents({ webhookHosts: [] }),
    );
    // The API's routes are the pipeline's router's (the server hands them to it), the control API's Koa's.
    const api = new Pipeline({} as PipelineDeps).router.routes.map(({ operation, methods }) => ({
      path: operation.path,
      methods,
    }));
    const served = [...api, ...router.stack]
      .filter((layer) => ["/api/v2/", "/_sim/", "/images/"].some((prefix) => String(layer.path).startsWith(prefix)))
      .flatMap((layer) =>
        layer.methods
          .filter((method) => method !== "HEAD")
          .map((method) => `${method.toLowerCase()} ${openApiPath(String(layer.path))}`),
      );
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(served.sort());
  });

  it("marks the defaulted query parameters optional and path parameters required", () => {
    const list = document.paths["/api/v2/collection"]!.get!.parameters!;
    for (const name of ["perPage", "page", "sortBy", "sortDir"])
      expect(list.find((parameter) => parameter.name === name)).toMatchObject({ in: "query", required: false });
    const events = document.paths["/api/v2/item/events/{address}/{tokenId}"]!.get!.parameters!;
    expect(
      events.filter((parameter) => parameter.in === "path").map(({ name, required }) => ({ name, required })),
    ).toEqual([
      { name: "address", required: true },
      { name: "tokenId", required: true },
    ]);
  });

  it("is written to a file by npm run openapi", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "openapi-")), "openapi.json");
    await promisify(execFile)(process.execPath, ["src/cli/openapi.ts", path]);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual(document);
  });

  it("is committed up to date in docs/openapi.json (run npm run openapi after changing a schema)", async () => {
    expect(JSON.parse(await readFile("docs/openapi.json", "utf8"))).toEqual(document);
  });
});

describe("served by the simulator", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startDemo();
  });
  afterAll(async () => sim?.close());

  const get = async (path: string) => {
    const response = await fetch(`${sim.url}${path}`);
    return {
      status: response.status,
      type: response.headers.get("content-type") ?? "",
      body: Buffer.from(await response.arrayBuffer()),
    };
  };

  it("answers /openapi.json with the document", async () => {
    const { status, type, body } = await get("/openapi.json");
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    expect(JSON.parse(body.toString())).toEqual({
      ...document,
      servers: [{ url: sim.url, description: "the simulator" }],
    });
  });

  it("whose schemas accept what the simulator really answers", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "openapi.json", components: { schemas: document.components.schemas } }, undefined, false);
    const accepts = (name: string, body: unknown) => {
      const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
      return validate(body) ? [] : validate.errors;
    };
    const collections = (await (await fetch(`${sim.url}/api/v2/collection`)).json()) as {
      collections: { address: string; chainId: number }[];
    };
    const { address, chainId } = collections.collections[0]!;
    expect(accepts("CollectionsResponse", collections)).toEqual([]);
    expect(
      accepts("CollectionResponse", await (await fetch(`${sim.url}/api/v2/collection/${address}`)).json()),
    ).toEqual([]);
    const mint = await mintItem(sim, { collection: address, chainId, item: { name: "Docs sword", initialSupply: 2 } });
    const minted = mint.body as { tokenIds: number[]; collectionAddress: string };
    expect(mint.status, JSON.stringify(minted)).toBe(200);
    expect(accepts("MintResponse", minted)).toEqual([]);
    expect(
      accepts(
        "ItemEventsResponse",
        await (await fetch(`${sim.url}/api/v2/item/events/${minted.collectionAddress}/${minted.tokenIds[0]}`)).json(),
      ),
    ).toEqual([]);
    expect(accepts("ErrorBody", await (await fetch(`${sim.url}/api/v2/collection?perPage=0`)).json())).toEqual([]);
    expect(
      accepts("MintBody", {
        collectionAddress: address,
        recipient: address,
        chainId: 56,
        item: { name: "x", initialSupply: 1, properties: [{ name: "a", value: "b" }] },
      }),
    ).toEqual([]);
  });

  it("serves /docs and every asset it loads from the simulator itself", async () => {
    const page = await get("/docs");
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const html = page.body.toString();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(assets.every((asset) => asset.startsWith("/docs/"))).toBe(true);
    for (const asset of assets) {
      const { status, type, body } = await get(asset);
      expect({ asset, status }).toEqual({ asset, status: 200 });
      expect(type).toMatch(/^(text\/css|text\/javascript|image\/png)/);
      expect(body.length).toBeGreaterThan(0);
    }
    const init = (await get("/docs/init.js")).body.toString();
    expect(init).toContain('url: "/openapi.json"');
    expect(init).toContain("validatorUrl: null");
  });

  it("serves no other file from node_modules", async () => {
    for (const path of ["/docs/package.json", "/docs/..%2F..%2Fpackage.json", "/docs/index.html"])
      expect((await get(path)).status).toBe(404);
  });

  itInChromium("renders /docs in headless Chromium with every other host unreachable", async () => {
    const profile = await mkdtemp(join(tmpdir(), "chromium-"));
    const { stdout } = await promisify(execFile)(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        `--user-data-dir=${profile}`,
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=10000",
        "--dump-dom",
        `${sim.url}/docs`,
      ],
      { timeout: 45_000, maxBuffer: 20 * 1024 * 1024 },
    ).finally(() => rm(profile, { recursive: true, force: true }));
    expect(stdout).toContain("NFT item and collection service (simulator)");
    for (const summary of ["Mint a new item", "Get an item's history", "Get one collection", "Get many collections"])
      expect(stdout).toContain(summary);
  });
});
