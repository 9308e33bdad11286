import { startSimulator, type SimEvent } from "nft-service-simulator";
import { expect, it } from "vitest";

it("hears a mint with sim.events(), typed by the event's kind", async () => {
  const sim = await startSimulator({ fixture: "demo" });
  try {
    const { collections } = await (await fetch(`${sim.url}/api/v2/collection?chainId=56&perPage=1`)).json();
    const collection: string = collections[0].address;
    const studio = sim.accounts.find((account) => account.apiKey === "demo-studio-key")!;
    const mint = () =>
      fetch(`${sim.url}/api/v2/item/new?apiKey=${studio.apiKey}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          collectionAddress: collection,
          recipient: studio.wallet,
          chainId: 56,
          item: { name: "Heard", initialSupply: 1 },
        }),
      });
    // Listening from the moment it is made; ready once the stream is open, so the mint cannot be missed.
    const events = sim.events({ collection });
    await events.ready;
    expect((await mint()).status).toBe(200);
    let heard: SimEvent | undefined;
    for await (const e of events) {
      heard = e;
      if (e.type === "TransferSingle") {
        expect(e.data.to).toBe(studio.wallet.toLowerCase());
        break;
      }
    }
    expect(heard?.type).toBe("TransferSingle");
  } finally {
    await sim.close();
  }
}, 60_000);
