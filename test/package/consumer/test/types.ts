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

// The API's request and response types, the fragment format, and the contracts' ABIs as viem reads them.
import type { Collection, ErrorBody, Fragment, ItemEvent, MintBody, MintResponse } from "nft-service-simulator";
import { collectionAbi, marketplaceAbi } from "nft-service-simulator/abi";
import type { ContractEventName, ContractFunctionName } from "viem";

export const mint: MintBody = {
  collectionAddress: "0x0000000000000000000000000000000000000001",
  recipient: "0x0000000000000000000000000000000000000002",
  chainId: 56,
  item: { name: "Sword", initialSupply: 1, properties: [{ name: "edge", value: "sharp" }] },
};
// @ts-expect-error an item has a name
export const nameless: MintBody = { ...mint, item: { initialSupply: 1 } };
export const minted = (answer: MintResponse): number[] => answer.tokenIds;
export const held = (collection: Collection): number => collection.holders;
export const kind = (event: ItemEvent): string => event.event;
export const refusal = (body: ErrorBody): string[] => body.errors;
export const fragment: Fragment = {
  timeline: [{ action: "buy", listing: "sale", buyer: "bob", amount: 1, at: "+1h" }],
};
// @ts-expect-error no such action
export const unknownAction: Fragment = { timeline: [{ action: "fly" }] };
export const buy: ContractFunctionName<typeof marketplaceAbi> = "buy";
// @ts-expect-error the marketplace has no such function
export const fly: ContractFunctionName<typeof marketplaceAbi> = "fly";
export const described: ContractEventName<typeof collectionAbi> = "ItemDescribed";
