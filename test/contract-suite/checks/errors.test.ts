import { describe, expect, it } from "vitest";
import { runCheck } from "../../../src/contract-suite/check.ts";
import { errorChecks } from "../../../src/contract-suite/checks/errors.ts";
import type { Facts } from "../../../src/contract-suite/facts.ts";
import type { Api, Exchange } from "../../../src/contract-suite/http.ts";

const KNOWN = {
  address: "0x00000000000000000000000000000000000000c1",
  chainId: 137,
  ownerAddress: "0x0000000000000000000000000000000000000a11",
};
const NO_KEY = "a mint without apiKey answers 401";

/** The body of the mint the check sends, to a target on `chainId` (if it says) whose known collection is `known`. */
async function mintSent(chainId: number | undefined, known: typeof KNOWN | undefined): Promise<any> {
  const bodies: unknown[] = [];
  const api = {
    post: async (path: string, _query: unknown, body: unknown) => {
      bodies.push(body);
      return { method: "POST", url: path, request: `POST ${path}`, status: 401, contentType: "", text: "", json: {} };
    },
  } as unknown as Api;
  const facts = {
    target: { chainId },
    collection: async () =>
      known ? { exchange: {} as Exchange, collection: known } : Promise.reject(new Error("none")),
  } as unknown as Facts;
  const check = errorChecks.checks.find((candidate) => candidate.name === NO_KEY)!;
  expect((await runCheck(errorChecks.name, check, api, facts)).status).toBe("passed");
  return bodies[0];
}

describe("the error cases' mint on hand-made targets", () => {
  it("names the target's chain where it is given, else the known collection's, else chain 1", async () => {
    expect(await mintSent(56, KNOWN)).toMatchObject({ chainId: 56, collectionAddress: KNOWN.address });
    expect(await mintSent(undefined, KNOWN)).toMatchObject({ chainId: 137, recipient: KNOWN.ownerAddress });
    expect(await mintSent(undefined, undefined)).toMatchObject({
      chainId: 1,
      collectionAddress: "0x0000000000000000000000000000000000000001",
    });
  });
});
