import { afterAll, expect, it } from "vitest";
import { killSimulatorProcesses, startSimulatorProcess } from "../processes.ts";
import { ADDRESS, originalService, upstream } from "./live-upstream.ts";

afterAll(() => killSimulatorProcesses());

it("--fork imports the live collection and serves it: its item's history at its live heights and times", async () => {
  const live = await upstream(originalService);
  try {
    const sim = await startSimulatorProcess(["--fork", live.base, "--collection", ADDRESS], {
      env: { PORT: "0", RPC_PORT: "0" },
    });
    expect(sim.output()).toMatch(/Forked 1 collection\(s\) of http:\/\/127\.0\.0\.1:\d+ into \.nft-sim\/forks\//);
    const list = (await (await fetch(`${sim.base}/api/v2/collection`)).json()) as {
      collections: { address: string }[];
    };
    expect(list.collections).toHaveLength(1);
    const history = (await (
      await fetch(`${sim.base}/api/v2/item/events/${list.collections[0]!.address}/9`)
    ).json()) as { events: { event: string; blockNumber: number; timestamp: number }[] };
    expect(
      history.events.slice(0, 2).map(({ event, blockNumber, timestamp }) => ({ event, blockNumber, timestamp })),
    ).toEqual([
      { event: "ItemListed", blockNumber: 24406454, timestamp: 1672570064 },
      { event: "TransferSingle", blockNumber: 24406454, timestamp: 1672570064 },
    ]);
    await sim.stop();
  } finally {
    live.server.close();
  }
}, 120_000);
