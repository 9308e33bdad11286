import { describe, expect, it } from "vitest";
import { runCheck, type CheckResult } from "../../../src/contract-suite/check.ts";
import { mintChecks } from "../../../src/contract-suite/checks/mint.ts";
import type { Facts } from "../../../src/contract-suite/facts.ts";
import type { Api, Exchange } from "../../../src/contract-suite/http.ts";
import { paths, type Target } from "../../../src/contract-suite/target.ts";

const READ = "0x470d7b2d4855bb6e80654c911fa410a717f77e0e";
const OTHER = "0x1111111111111111111111111111111111111111";
const OWNER = "0x9B07418A910748A2B0D9458B1E792B03CB7C4F3F";
const ZERO = "0x0000000000000000000000000000000000000000";
const TX = `0x${"ab".repeat(32)}`;

const [answersTxHash, isMintResponse, historyShowsMint] = mintChecks.checks;

const exchange = (request: string, status: number, json: unknown): Exchange => ({
  method: request.split(" ")[0]!,
  url: `http://t${request.split(" ")[1]}`,
  request,
  status,
  contentType: "application/json",
  text: JSON.stringify(json),
  json,
});

interface World {
  target?: Partial<Target>;
  status?: number;
  answer?: unknown;
  events?: unknown[];
}

/** A target that answers the mint and the item history by hand, recording what the checks sent it. */
function world(options: World = {}) {
  const { target = {}, status = 200, events } = options;
  const answer = "answer" in options ? options.answer : { txHash: TX, tokenIds: [7] };
  const sent: { path: string; query: unknown; body: unknown }[] = [];
  const looked: unknown[] = [];
  let forgotten = 0;
  const api = {
    post: async (path: string, query: unknown, body: unknown) => {
      sent.push({ path, query, body });
      return exchange(`POST ${path}`, status, answer);
    },
    forgetReads: () => void forgotten++,
  } as unknown as Api;
  const history = events ?? [
    { event: "TransferSingle", from: ZERO, to: OWNER.toLowerCase(), transactionHash: TX, id: "mint" },
  ];
  const facts = {
    target: { allowWrites: true, apiKey: "key", collection: READ, ...target },
    mintCollection: async () => ({
      address: target.mintCollection?.toLowerCase() ?? READ,
      chainId: 97,
      ownerAddress: OWNER,
    }),
    chainId: async () => 56,
    events: async (item: unknown) => {
      looked.push(item);
      return { exchange: exchange("GET /history", 200, { events: history }), events: history };
    },
  } as unknown as Facts;
  const run = (check: (typeof mintChecks.checks)[number]): Promise<CheckResult> =>
    runCheck(mintChecks.name, check, api, facts);
  return { run, sent, looked, forgotten: () => forgotten };
}

const messages = (result: CheckResult) => result.violations.map((violation) => violation.message);

describe("the mint checks", () => {
  it("skip without writes allowed or without an API key, sending nothing", async () => {
    const off = world({ target: { allowWrites: false } });
    expect(await off.run(answersTxHash!)).toMatchObject({
      status: "skipped",
      skipReason: "writes are off; pass --allow-writes to mint on the target",
    });
    const keyless = world({ target: { apiKey: undefined } });
    expect(await keyless.run(answersTxHash!)).toMatchObject({
      status: "skipped",
      skipReason: expect.stringMatching(/^needs an API key/),
    });
    expect([...off.sent, ...keyless.sent]).toEqual([]);
  });

  it("mint once for the three, to the lower-cased owner on the read collection's chain, then forget the reads", async () => {
    const { run, sent, forgotten } = world();
    expect(await run(answersTxHash!)).toMatchObject({ status: "passed" });
    await run(isMintResponse!);
    expect(await run(historyShowsMint!)).toMatchObject({ status: "passed" });
    expect(sent).toHaveLength(1);
    expect(forgotten()).toBe(1);
    expect(sent[0]).toMatchObject({
      path: paths.mint,
      query: { apiKey: "key" },
      body: { collectionAddress: READ, chainId: 56, recipient: OWNER.toLowerCase() },
    });
  });

  it("take the mint collection's own chain only when it is another collection than the one read", async () => {
    const same = world({ target: { mintCollection: READ.toUpperCase().replace("0X", "0x") } });
    await same.run(answersTxHash!);
    expect(same.sent[0]?.body).toMatchObject({ chainId: 56 });
    const elsewhere = world({ target: { mintCollection: OTHER } });
    await elsewhere.run(answersTxHash!);
    expect(elsewhere.sent[0]?.body).toMatchObject({ collectionAddress: OTHER, chainId: 97 });
    const noneRead = world({ target: { mintCollection: OTHER, collection: undefined } });
    await noneRead.run(answersTxHash!);
    expect(noneRead.sent[0]?.body).toMatchObject({ chainId: 97 });
  });

  it("mint to the given recipient, lower-cased", async () => {
    const { run, sent } = world({ target: { recipient: OTHER.replace("0x1", "0xA") } });
    await run(answersTxHash!);
    expect(sent[0]?.body).toMatchObject({ recipient: OTHER.replace("0x1", "0xa") });
  });

  it("a txHash must be a whole 0x-prefixed 32-byte hash, in either case", async () => {
    const verdicts = [];
    for (const txHash of [
      TX.toUpperCase().replace("0X", "0x"),
      `${TX}0`,
      `x${TX}`,
      TX.slice(0, -1),
      7,
      [TX],
      undefined,
    ])
      verdicts.push(messages(await world({ answer: { txHash } }).run(answersTxHash!)));
    expect(verdicts).toEqual([
      [],
      [`txHash is "${TX}0", not a 0x-prefixed 32-byte hash`],
      [`txHash is "x${TX}", not a 0x-prefixed 32-byte hash`],
      [`txHash is "${TX.slice(0, -1)}", not a 0x-prefixed 32-byte hash`],
      ["txHash is 7, not a 0x-prefixed 32-byte hash"],
      [`txHash is ["${TX}"], not a 0x-prefixed 32-byte hash`],
      ["txHash is undefined, not a 0x-prefixed 32-byte hash"],
    ]);
    expect(messages(await world({ answer: undefined }).run(answersTxHash!))).toEqual([
      "txHash is undefined, not a 0x-prefixed 32-byte hash",
    ]);
    expect(messages(await world({ status: 400, answer: "no" }).run(answersTxHash!))).toEqual([
      'answered 400, expected 200; body: "no"',
    ]);
  });

  it("the answer is judged by the MintResponse schema, named", async () => {
    const wrong = await world({ answer: { txHash: 1 } }).run(isMintResponse!);
    expect(messages(wrong).every((message) => message.endsWith("(schema MintResponse)"))).toBe(true);
    expect(messages(wrong).length).toBeGreaterThan(0);
  });

  it("look the first minted token up in the minted collection", async () => {
    const { run, looked } = world({ target: { mintCollection: OTHER }, answer: { txHash: TX, tokenIds: [3, 4] } });
    expect(await run(historyShowsMint!)).toMatchObject({ status: "passed" });
    expect(looked).toEqual([{ collection: OTHER, tokenId: 3 }]);
  });

  it("cannot look the mint up when it failed, and skip when it names no token", async () => {
    expect(await world({ status: 500, answer: {} }).run(historyShowsMint!)).toMatchObject({
      status: "failed",
      violations: [{ message: "cannot check: the mint answered 500", request: `POST ${paths.mint}` }],
    });
    for (const answer of [
      { txHash: TX },
      { txHash: TX, tokenIds: [] },
      { txHash: TX, tokenIds: ["7"] },
      null,
      undefined,
    ])
      expect(await world({ answer }).run(historyShowsMint!)).toMatchObject({
        status: "skipped",
        skipReason: "the mint answer names no tokenIds, so the new item cannot be looked up",
      });
  });

  it("find the mint by its transaction among the history's transfers from the zero address", async () => {
    const to = OWNER.toLowerCase();
    const notMint = [
      { event: "TransferSingle", from: OTHER, to, transactionHash: TX },
      { event: "TransferSingle", from: ZERO, to, transactionHash: `0x${"cd".repeat(32)}` },
    ];
    expect(messages(await world({ events: notMint }).run(historyShowsMint!))).toEqual([
      `no TransferSingle/TransferBatch from the zero address in transaction ${TX}`,
    ]);
    const batch = [{ event: "TransferBatch", from: ZERO, to, transactionHash: TX }];
    expect(messages(await world({ events: [...notMint, ...batch] }).run(historyShowsMint!))).toEqual([]);
    const elsewhere = [{ event: "TransferSingle", from: ZERO, to: OTHER, transactionHash: TX }];
    expect(await world({ events: elsewhere }).run(historyShowsMint!)).toMatchObject({
      violations: [{ message: `the mint went to ${OTHER}, not the recipient ${to}`, request: "GET /history" }],
    });
  });
});
