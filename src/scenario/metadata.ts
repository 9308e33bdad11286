import type { Hex } from "viem";
import { encodeCollectionDescription, encodeItemDescription, MetadataTooLarge } from "../metadata/codec.ts";
import { slugify } from "../metadata/slug.ts";
import type { Scenario, ScenarioCollection, ScenarioItem } from "./schema.ts";

/** What the scenario's collections and items put on chain beside the chain's own facts, by id (encoded once, at load). */
export interface ScenarioMetadata {
  collections: Map<string, Hex>;
  items: Map<string, Hex>;
}

/** Encodes every collection's and item's metadata; one too large to go on chain is a problem named by its path. */
export function scenarioMetadata(scenario: Scenario, problems: string[]): ScenarioMetadata {
  const encoded: ScenarioMetadata = { collections: new Map(), items: new Map() };
  const encode = (path: string, write: () => Hex): Hex | undefined => {
    try {
      return write();
    } catch (error) {
      if (!(error instanceof MetadataTooLarge)) throw error;
      problems.push(`${path}: ${error.message}`);
      return undefined;
    }
  };
  scenario.collections.forEach((collection, i) => {
    const metadata = encode(`collections[${i}]`, () =>
      encodeCollectionDescription(collection.name, described(collection)),
    );
    if (metadata) encoded.collections.set(collection.id, metadata);
  });
  scenario.items.forEach((item, i) => {
    const metadata = encode(`items[${i}]`, () => encodeItemDescription(itemDescription(item)));
    if (metadata) encoded.items.set(item.id, metadata);
  });
  return encoded;
}

function described(collection: ScenarioCollection) {
  const { description, genre, image, imageHash, website, isVerified } = collection;
  return {
    description,
    genre,
    image,
    imageHash,
    slug: collection.slug ?? slugify(collection.name),
    website,
    isVerified,
  };
}

function itemDescription(item: ScenarioItem) {
  return {
    name: item.name,
    description: item.description ?? "",
    imageUrl: item.imageUrl ?? "",
    fileType: item.fileType ?? "image/png",
    properties: (item.properties ?? []).map(({ name, value, static: isStatic }) => ({
      name,
      value,
      static: isStatic ?? false,
    })),
    isConsumable: item.isConsumable ?? false,
  };
}
