import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addressOf } from "../../src/core/keys.ts";
import { call, startTestSimulator } from "../harness.ts";
import { ALICE, liveAccountsWorld, LORD, PLACED } from "../scenario/live-accounts.ts";
import { describeOnAnvil, startAnvil, type NodeProcess } from "./nodes.ts";

// A world with accounts at live addresses on a dev node (--rpc-url): the node sends as them by impersonation, as it
// does for the world's other wallets without --keys; with --keys, where the simulator only signs, they need their own.

describeOnAnvil("accounts at live addresses on a dev node", () => {
  let anvil: NodeProcess;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 56, timestamp: Math.floor(liveAccountsWorld().genesisTime!.getTime() / 1000) });
  });
  afterAll(() => anvil?.stop("SIGKILL"));

  it("are sent as by impersonation there: the live owner owns the collection, the live seller lists", async () => {
    const sim = await startTestSimulator(liveAccountsWorld(), { nodeUrls: [anvil.url] });
    try {
      expect((await call(sim, `/api/v2/collection/${PLACED}`)).body.collection.ownerAddress).toBe(LORD);
      const { events } = (await call(sim, `/api/v2/item/events/${PLACED}/1?perPage=100`)).body;
      expect(events.find((event: { event: string }) => event.event === "ItemListed").from).toBe(ALICE);
    } finally {
      await sim.close();
    }
  });

  it("are refused with --keys that do not give theirs, naming them; a key given for one must be its address's", async () => {
    const accounts = new Map([
      ["studio", generatePrivateKey()],
      ["guest", generatePrivateKey()],
    ]);
    const givenKeys = { deployer: generatePrivateKey(), accounts };
    await expect(
      startTestSimulator(liveAccountsWorld({ keys: accounts }), { nodeUrls: [anvil.url], givenKeys }),
    ).rejects.toThrow(/3 account\(s\) at live addresses without a key \(0x7a6d17c7.*give their keys in the keys file/);
    const wrong = generatePrivateKey();
    expect(() => liveAccountsWorld({ keys: new Map([["alice", wrong]]) })).toThrow(
      `accounts.alice: the key given is not the key of ${ALICE}`,
    );
    expect(addressOf(wrong)).not.toBe(ALICE);
  });
});
