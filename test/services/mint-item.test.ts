import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { grantMinter, revokeMinter } from "../../src/chain/actions/minter-role.ts";
import type { Simulator } from "../../src/simulator/simulator.ts";
import {
  call,
  chainHeads,
  collectionsOn,
  DEMO_KEYS,
  demoAccount,
  expectErrorBody,
  mintBody,
  mintItem,
  postJson,
  startDemo,
} from "../harness.ts";

let sim: Simulator;
let bnb: Address[];
let polygon: Address[];
const MINT = `/api/v2/item/new?apiKey=${DEMO_KEYS.studio}`;

beforeAll(async () => {
  sim = await startDemo();
  bnb = await collectionsOn(sim, 56);
  polygon = await collectionsOn(sim, 137);
});
afterAll(() => sim?.close());

async function itemCount(collection: Address): Promise<bigint> {
  const chain = sim.chains.get(56)!;
  return chain.publicClient.readContract({
    address: collection,
    abi: chain.abis.collection,
    functionName: "itemCount",
  });
}

describe("POST /api/v2/item/new", () => {
  it("mints a stackable item: one new token id, the answer carries txHash, and the history shows the mint at once", async () => {
    const before = await itemCount(bnb[0]!);
    const { status, body } = await mintItem(sim, {
      collection: bnb[0]!,
      chainId: 56,
      item: { initialSupply: 7, maximumSupply: 70, royaltyFee: 50 },
    });
    expect(status).toBe(200);
    expect(body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.tokenIds).toEqual([Number(before) + 1]);
    expect(body.itemRefs).toEqual([`56-${bnb[0]}-${before + 1n}`]);
    expect(body.item).toEqual({
      name: "Test Sword",
      description: "",
      imageUrl: "",
      fileType: "image/png",
      properties: [],
      isStackable: true,
      isConsumable: false,
      initialSupply: 7,
      maximumSupply: 70,
      royaltyFee: 50,
    });
    const { body: history } = await call(sim, `/api/v2/item/events/${bnb[0]}/${body.tokenIds[0]}`);
    expect(history.events).toHaveLength(1);
    expect(history.events[0]).toMatchObject({
      event: "TransferSingle",
      from: "0x0000000000000000000000000000000000000000",
      to: demoAccount(sim, "studio").wallet,
      amount: "7",
      transactionHash: body.txHash,
      chainId: 56,
    });
    const receipt = await sim.chains.get(56)!.publicClient.getTransactionReceipt({ hash: body.txHash });
    expect(receipt.from.toLowerCase()).toBe(demoAccount(sim, "studio").wallet);
  });

  it("mints non-stackable items as one token id of supply one per unit", async () => {
    const before = Number(await itemCount(bnb[0]!));
    const { status, body } = await mintItem(sim, {
      collection: bnb[0]!,
      chainId: 56,
      item: { isStackable: false, initialSupply: 3 },
    });
    expect(status).toBe(200);
    expect(body.tokenIds).toEqual([before + 1, before + 2, before + 3]);
    for (const tokenId of body.tokenIds) {
      const { body: history } = await call(sim, `/api/v2/item/events/${bnb[0]}/${tokenId}`);
      expect(history.events).toEqual([expect.objectContaining({ event: "TransferBatch", amount: "1", tokenId })]);
    }
  });

  it("accepts a form post (the Unity client's WWWForm) with item as JSON", async () => {
    const form = new URLSearchParams({
      collectionAddress: bnb[1]!,
      recipient: demoAccount(sim, "studio").wallet,
      chainId: "56",
      item: JSON.stringify({ name: "Form Potion", initialSupply: 2, isConsumable: true }),
    });
    const { status, body } = await call(sim, MINT, { method: "POST", body: form });
    expect(status).toBe(200);
    expect(body.item).toMatchObject({ name: "Form Potion", isConsumable: true, initialSupply: 2 });
  });

  it("follows the contract's role: granting lets a wallet mint, revoking stops it", async () => {
    const guest = demoAccount(sim, "guest");
    const guestMint = () => mintItem(sim, { collection: bnb[2]!, chainId: 56, apiKey: guest.apiKey });
    const refused = await guestMint();
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, "FORBIDDEN");

    const target = sim.chains.get(56)!;
    const role = { admin: demoAccount(sim, "studio").wallet, collection: bnb[2]!, wallet: guest.wallet };
    await target.confirmed(await grantMinter(target, role));
    const granted = await guestMint();
    expect(granted.status).toBe(200);

    await target.confirmed(await revokeMinter(target, role));
    const revoked = await guestMint();
    expect(revoked.status).toBe(403);
    expect(revoked.body.errors[0]).toContain(guest.wallet);
  });
});

describe("refused mints answer a 4xx and change nothing on chain", () => {
  const oversized = "x".repeat(200_000);
  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string]> = [
    [
      "malformed JSON",
      () =>
        call(sim, MINT, { method: "POST", headers: { "content-type": "application/json" }, body: '{"chainId": 56,' }),
      400,
      "INVALID_JSON",
    ],
    [
      "a wrong type",
      () => postJson(sim, MINT, { ...mintBody(sim, bnb[0]!, 56), chainId: "56" }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a missing item name",
      () => postJson(sim, MINT, { ...mintBody(sim, bnb[0]!, 56), item: { initialSupply: 1 } }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "an unknown item field",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { colour: "red" } }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a malformed address",
      () => postJson(sim, MINT, { ...mintBody(sim, bnb[0]!, 56), recipient: "0x123" }),
      400,
      "VALIDATION_FAILED",
    ],
    ["an unknown chainId", () => mintItem(sim, { collection: bnb[0]!, chainId: 5 }), 400, "VALIDATION_FAILED"],
    [
      "a collection that lives on another chain",
      () => mintItem(sim, { collection: polygon[0]!, chainId: 56 }),
      404,
      "NOT_FOUND",
    ],
    [
      "an unknown collection",
      () => mintItem(sim, { collection: `0x${"12".repeat(20)}`, chainId: 56 }),
      404,
      "NOT_FOUND",
    ],
    ["a missing apiKey", () => postJson(sim, "/api/v2/item/new", mintBody(sim, bnb[0]!, 56)), 401, "UNAUTHORIZED"],
    [
      "an unknown apiKey",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, apiKey: "nope" }),
      401,
      "UNAUTHORIZED",
    ],
    [
      "an unauthorized wallet",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, apiKey: DEMO_KEYS.guest }),
      403,
      "FORBIDDEN",
    ],
    [
      "a supply above the max",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { initialSupply: 11, maximumSupply: 10 } }),
      422,
      "CONTRACT_RULE",
    ],
    [
      "a non-stackable supply above the max",
      () =>
        mintItem(sim, {
          collection: bnb[0]!,
          chainId: 56,
          item: { isStackable: false, initialSupply: 3, maximumSupply: 2 },
        }),
      422,
      "CONTRACT_RULE",
    ],
    [
      "a royalty of 30%",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { royaltyFee: 300 } }),
      422,
      "CONTRACT_RULE",
    ],
    [
      "a royalty above 100%",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { royaltyFee: 1001 } }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "too many non-stackable tokens",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { isStackable: false, initialSupply: 101 } }),
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a body over the size limit",
      () => mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { description: oversized } }),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "metadata too large to go on chain (a body within the size limit)",
      () =>
        mintItem(sim, {
          collection: bnb[0]!,
          chainId: 56,
          item: {
            description: "d".repeat(5000),
            properties: Array.from({ length: 20 }, (_, i) => ({
              name: `p${i}`,
              value: "v".repeat(1000),
              static: true,
            })),
          },
        }),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    [
      "an unsupported media type",
      () => call(sim, MINT, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "a JSON array body",
      () => call(sim, MINT, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" }),
      400,
      "VALIDATION_FAILED",
    ],
  ];

  it.each(cases)("%s", async (_what, send, status, code) => {
    const heads = await chainHeads(sim);
    const counts = await Promise.all(bnb.map(itemCount));
    const answer = await send();
    expect(answer.status).toBe(status);
    expectErrorBody(answer.body, code);
    expect(await chainHeads(sim)).toEqual(heads);
    expect(await Promise.all(bnb.map(itemCount))).toEqual(counts);
  });

  it("names the metadata's size and the limit when it is too large to go on chain", async () => {
    const item = {
      description: "d".repeat(5000),
      properties: [{ name: "lore", value: "v".repeat(1000), static: true }],
    };
    const properties = Array.from({ length: 12 }, () => item.properties[0]);
    const { body } = await mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { ...item, properties } });
    expect(body.errors[0]).toMatch(/^item: the item's metadata is [0-9,]+ bytes as it goes on chain .* 16,384 allowed/);
  });

  it("names the problem in errors[] for a royalty of 30%", async () => {
    const { body } = await mintItem(sim, { collection: bnb[0]!, chainId: 56, item: { royaltyFee: 300 } });
    expect(body.errors[0]).toMatch(/royaltyFee 300/);
  });
});
