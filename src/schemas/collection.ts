import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Address, AddressInput, ChainId, Closed, Named, OptionalApiKey, Page, PerPage, StringEnum } from "./common.ts";

const collectionFields = {
  address: Address,
  name: Type.String(),
  description: Type.String(),
  genre: Type.String({ description: "category label" }),
  image: Type.String({ description: "may be empty" }),
  imageHash: Type.String({ description: "may be empty" }),
  ownerAddress: Address,
  slug: Type.String(),
  uri: Type.String({ description: "base URL of the items' metadata: <uri>/<tokenId>" }),
  website: Type.String({ description: "may be empty" }),
  mintDate: Type.String({
    format: "date-time",
    description: "ISO 8601, UTC: the time of the block that created the collection",
  }),
  chainId: ChainId,
  holders: Type.Integer({
    minimum: 0,
    description: "distinct addresses holding any of its tokens; listed tokens count for their seller",
  }),
  volume_1d: Type.Number({ minimum: 0, description: "USD value of sales in the last day" }),
  volume_1w: Type.Number({ minimum: 0, description: "USD value of sales in the last 7 days" }),
  volume_30d: Type.Number({ minimum: 0, description: "USD value of sales in the last 30 days" }),
  volume_all: Type.Number({ minimum: 0, description: "USD value of all sales" }),
};

/** A collection as the list answers it (no imageUrl). */
export const CollectionSummary = Named("CollectionSummary", collectionFields);
/** A collection as the single-collection endpoint answers it. */
export const Collection = Named("Collection", { ...collectionFields, imageUrl: Type.String() });
export type CollectionSummary = Static<typeof CollectionSummary>;
export type Collection = Static<typeof Collection>;

export type CollectionField = keyof typeof collectionFields;
export const COLLECTION_FIELDS = Object.keys(collectionFields) as CollectionField[];

/** Filters: every collection field, matched exactly (an address in any case); the schema types them (`chainId=56`). */
const filterFields = Object.fromEntries(
  Object.entries(collectionFields as Record<string, TSchema>).map(([field, schema]) => [
    field,
    Type.Optional(schema === Address ? AddressInput : schema),
  ]),
) as Record<CollectionField, TSchema>;

const isVerified = Type.Optional(
  Type.Boolean({
    description:
      "the original's verified flag; every simulated collection is verified unless its fixture says otherwise",
  }),
);

export const CollectionsQuery = Closed({
  perPage: PerPage,
  page: Page,
  sortBy: StringEnum(COLLECTION_FIELDS, { default: "mintDate" }),
  sortDir: StringEnum(["asc", "desc"], { default: "desc" }),
  isVerified,
  apiKey: OptionalApiKey,
  ...filterFields,
});

/** The list's query parameters that page, sort or authenticate; every other one is an exact filter. */
export const NON_FILTER_PARAMETERS: readonly string[] = Object.keys(CollectionsQuery.properties).filter(
  (name) => name !== "isVerified" && !(name in filterFields),
);
export type CollectionsQuery = Static<typeof CollectionsQuery> & Partial<Record<CollectionField, unknown>>;

export const CollectionParams = Closed({ address: AddressInput });
export const CollectionQuery = Closed({ chainId: Type.Optional(ChainId), apiKey: OptionalApiKey });

export const CollectionResponse = Named("CollectionResponse", { collection: Collection });

export const CollectionsResponse = Named("CollectionsResponse", {
  collections: Type.Array(CollectionSummary),
  count: Type.Integer({ minimum: 0, description: "how many collections match, over all pages" }),
});
export type CollectionsResponse = Static<typeof CollectionsResponse>;
