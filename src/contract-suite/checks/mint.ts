import { MintResponse, type MintBody } from "../../schemas/item.ts";
import { check, oncePerRun, type CheckGroup } from "../check.ts";
import { cannotCheck } from "../stopped.ts";
import { paths } from "../target.ts";
import { expectJsonBody, expectStatus } from "./expect.ts";
import { isMint } from "../answers/page-rules.ts";

const TX_HASH = /^0x[0-9a-f]{64}$/i;

/** The one write of a run, sent once though three checks judge it. */
const mintOnce = oncePerRun(async (probe) => {
  const { allowWrites, apiKey, mintCollection, collection: readCollection, recipient } = probe.facts.target;
  if (!allowWrites) probe.skip("writes are off; pass --allow-writes to mint on the target");
  if (!apiKey) probe.skip("needs an API key (--api-key / API_KEY) of a wallet allowed to mint on the collection");
  const collection = await probe.facts.mintCollection();
  const elsewhere = mintCollection !== undefined && mintCollection.toLowerCase() !== readCollection?.toLowerCase();
  const chainId = elsewhere ? collection.chainId : await probe.facts.chainId();
  const to = (recipient ?? collection.ownerAddress).toLowerCase();
  const exchange = await probe.api.post(paths.mint, { apiKey }, mintBody(collection.address, chainId, to));
  probe.api.forgetReads();
  return { exchange, recipient: to, collection: collection.address };
});

export const mintChecks: CheckGroup = {
  name: "POST /api/v2/item/new (writes)",
  checks: [
    check("a valid mint answers 200 with a txHash", async (probe) => {
      const { exchange } = await mintOnce(probe);
      if (!expectStatus(probe, exchange, 200)) return;
      const txHash = (exchange.json as { txHash?: unknown } | undefined)?.txHash;
      if (typeof txHash !== "string" || !TX_HASH.test(txHash))
        probe.fail(exchange, `txHash is ${JSON.stringify(txHash)}, not a 0x-prefixed 32-byte hash`);
    }),
    check("the mint answer is a MintResponse body", async (probe) => {
      const { exchange } = await mintOnce(probe);
      expectJsonBody(probe, exchange, MintResponse);
    }),
    check("the minted item's history shows the mint right away", async (probe) => {
      const { exchange, recipient, collection } = await mintOnce(probe);
      const answer = (exchange.json ?? {}) as Partial<MintResponse>;
      const tokenId = answer.tokenIds?.[0];
      if (exchange.status !== 200) throw cannotCheck(`the mint answered ${exchange.status}`, exchange.request);
      if (typeof tokenId !== "number")
        return probe.skip("the mint answer names no tokenIds, so the new item cannot be looked up");
      const { exchange: history, events } = await probe.facts.events({ collection, tokenId });
      const mint = events.find((event) => isMint(event) && event.transactionHash === answer.txHash);
      if (!mint)
        return probe.fail(
          history,
          `no TransferSingle/TransferBatch from the zero address in transaction ${answer.txHash}`,
        );
      if (mint.to !== recipient) probe.fail(history, `the mint went to ${mint.to}, not the recipient ${recipient}`);
    }),
  ],
};

/** A small, valid mint: one stackable unit, every field of the spec's item given. */
export function mintBody(collectionAddress: string, chainId: number, recipient: string): MintBody {
  return {
    collectionAddress,
    recipient,
    chainId,
    item: {
      name: `contract-suite item ${new Date().toISOString()}`,
      description: "Minted by the contract test suite.",
      imageUrl: "",
      fileType: "image/png",
      properties: [{ name: "source", value: "contract-suite", static: true }],
      isStackable: true,
      isConsumable: false,
      initialSupply: 1,
      maximumSupply: 1,
      royaltyFee: 0,
    },
  };
}
