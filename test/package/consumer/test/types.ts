// Checked by tsc in the installed project: the package's declarations resolve to real types, not any.
import type { RunningSimulator, SimEvent, StartOptions } from "nft-service-simulator";
import { createHandlers, DEFAULT_SNAPSHOTS, type CreateHandlersOptions } from "nft-service-simulator/msw";

// @ts-expect-error a wallet is an address
export const wallet: RunningSimulator["accounts"][number]["wallet"] = 5;
// @ts-expect-error a port is a number
export const options: StartOptions = { port: "3000" };
// @ts-expect-error baseUrl is a string
export const handlerOptions: CreateHandlersOptions = { baseUrl: 1 };
// In Node a snapshot directory is named by its path (the browser build takes the files: ../browser/).
export const directory: string = DEFAULT_SNAPSHOTS;
export const fromDirectory = createHandlers({ snapshots: DEFAULT_SNAPSHOTS });

// Pushed events: `type` tells what `data` is.
export const worthOf = (e: SimEvent): number =>
  e.type === "Swapped" ? e.data.worth : e.type === "CollectionCreated" ? e.data.volume_all : 0;
// @ts-expect-error a removal carries no price
export const removedPrice = (e: Extract<SimEvent, { type: "removed" }>): number => e.data.price;
