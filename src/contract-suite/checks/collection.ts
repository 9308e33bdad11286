import { isDeepStrictEqual } from "node:util";
import { CollectionResponse } from "../../schemas/collection.ts";
import { check, type CheckGroup } from "../check.ts";
import { paths } from "../target.ts";
import { expectOk } from "./expect.ts";

export const collectionChecks: CheckGroup = {
  name: "GET /api/v2/collection/:address",
  checks: [
    check("a known collection answers 200 and a CollectionResponse body", async (probe) => {
      const { exchange } = await probe.facts.collection();
      expectOk(probe, exchange, CollectionResponse);
    }),
    check("it answers the collection asked for, its address in lower case", async (probe) => {
      const { exchange, collection } = await probe.facts.collection();
      const asked = exchange.url.split("/").pop()!.toLowerCase();
      if (collection.address !== asked)
        probe.fail(exchange, `answered collection ${JSON.stringify(collection.address)} for ${asked}`);
    }),
    check("it equals its entry in the list, plus imageUrl", async (probe) => {
      const { exchange, collection } = await probe.facts.collection();
      const { imageUrl: _imageUrl, ...summary } = collection;
      const listed = await probe.facts.list({ address: collection.address, chainId: collection.chainId });
      const entry = listed.collections.find((candidate) => candidate.address === collection.address);
      if (!entry)
        return probe.fail(listed.exchange, `the list filtered by its address does not hold ${collection.address}`);
      for (const field of new Set([...Object.keys(summary), ...Object.keys(entry)])) {
        const [one, other] = [(summary as Record<string, unknown>)[field], (entry as Record<string, unknown>)[field]];
        if (!isDeepStrictEqual(one, other))
          probe.fail(
            exchange,
            `${field} is ${JSON.stringify(one)} here but ${JSON.stringify(other)} in ${listed.exchange.request}`,
          );
      }
    }),
    check("the address is accepted in upper case and answers the same collection", async (probe) => {
      const { exchange, collection } = await probe.facts.collection();
      const shouted = `0x${collection.address.slice(2).toUpperCase()}`;
      const upper = await probe.api.get(paths.collection(shouted));
      if (upper.status !== 200)
        return probe.fail(upper, `answered ${upper.status}, expected 200 as for ${exchange.request}`);
      if (!isDeepStrictEqual(upper.json, exchange.json))
        probe.fail(upper, `answered a different body than ${exchange.request}`);
    }),
  ],
};
