import type { MintBody } from "../../schemas/item.ts";

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
