import { Type, type Static } from "@sinclair/typebox";
import { Address, AddressInput, ChainId, Closed, ItemRef, Named, TxHash } from "./common.ts";
import { optional } from "./input.ts";
import { ITEM_METADATA_MAX_BYTES } from "./on-chain-metadata.ts";

/** How many tokens one non-stackable mint may create (each is a token id of its own). */
export const MAX_NON_STACKABLE_PER_MINT = 100;

export const Property = Closed({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  value: Type.String({ maxLength: 1000 }),
  static: Type.Boolean({ default: false, description: "static properties never change after mint" }),
});

const itemFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000, default: "" }),
  imageUrl: Type.String({ maxLength: 2000, default: "" }),
  fileType: Type.String({
    pattern: "^[a-z]+/[a-zA-Z0-9.+-]+$",
    default: "image/png",
    description: "MIME type of the image",
  }),
  properties: Type.Array(Property, { maxItems: 100, default: [] }),
  isStackable: Type.Boolean({ default: true }),
  isConsumable: Type.Boolean({ default: false }),
  initialSupply: Type.Integer({
    minimum: 1,
    maximum: 1_000_000_000_000,
    description: "amount minted to the recipient",
  }),
  maximumSupply: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: "defaults to initialSupply" }),
  ),
  royaltyFee: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 0,
    description: "per mille: 50 is 5%; the contract refuses 300 (30%) or more",
  }),
};

/** The `item` of a mint request: `name` and `initialSupply` are required, the rest have defaults. */
export const ItemDefinition = Closed(itemFields, {
  description:
    `The item's metadata goes on chain with it: at most ${ITEM_METADATA_MAX_BYTES.toLocaleString("en")} bytes of ` +
    `\`name\`, \`description\`, \`imageUrl\`, \`fileType\`, \`properties\` and \`isConsumable\` as compact JSON ` +
    `(fields at their defaults left out); more answers 413.`,
  if: { properties: { isStackable: { const: false } }, required: ["isStackable"] },
  then: { properties: { initialSupply: { maximum: MAX_NON_STACKABLE_PER_MINT } } },
});

/** An item as a caller writes it: every field with a default may be left out (a property's `static` too). */
export const ItemInput = Closed(
  {
    ...optional(itemFields, ["description", "imageUrl", "fileType", "isStackable", "isConsumable", "royaltyFee"]),
    properties: Type.Optional(
      Type.Array(Closed(optional(Property.properties, ["static"])), {
        maxItems: 100,
        default: [],
      }),
    ),
  },
  { description: ItemDefinition.description, if: ItemDefinition.if, then: ItemDefinition.then },
);

/** An item's description as it is on chain (ItemDescribed): the fields of the mint's `item` the chain does not fix. */
const { isStackable, initialSupply, maximumSupply, royaltyFee, ...described } = itemFields;
export const ItemDescription = Named("ItemDescription", described);
export type ItemDescription = Static<typeof ItemDescription>;

export const MintBody = Closed({
  collectionAddress: AddressInput,
  recipient: AddressInput,
  chainId: ChainId,
  item: ItemDefinition,
});
export type MintBody = Static<typeof MintBody>;
/** A mint request as a caller writes it (the item's defaults left out). */
export type MintRequest = Omit<MintBody, "item"> & { item: Static<typeof ItemInput> };

export const MintQuery = Closed({ apiKey: Type.String({ minLength: 1 }) });

/** The item as stored: every field resolved. */
export const StoredItem = Type.Required(Closed(itemFields));
export type StoredItem = Static<typeof StoredItem>;

export const MintResponse = Named("MintResponse", {
  txHash: TxHash,
  chainId: ChainId,
  collectionAddress: Address,
  recipient: Address,
  tokenIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 }),
  itemRefs: Type.Array(ItemRef, { minItems: 1 }),
  item: StoredItem,
});
export type MintResponse = Static<typeof MintResponse>;
