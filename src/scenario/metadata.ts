import type { Hex } from "viem";
import { ERRORS, isApiError } from "../core/errors.ts";
import { encodeCollectionDescription, encodeItemDescription } from "../metadata/codec.ts";
import { slugify } from "../core/formats.ts";
import type { Scenario, ScenarioCollection, ScenarioItem } from "../schemas/scenario.ts";

/**
 * What the scenario's collections and items put on chain beside the chain's own facts, by id (encoded once, at load).
 */
export interface ScenarioMetadata {
  collections: Map<string, Hex>;
  items: Map<string, Hex>;
}

/**
 * A URL a scenario writes as a path from `/` is on the simulator itself (`/images/<seed>.png`):
 * it is made absolute with the world's base URL, as collection uris are. Any other is kept as written.
 */
function onSimulator(url: string, baseUrl: string | undefined): string {
  return baseUrl !== undefined && url.startsWith("/") ? `${baseUrl}${url}` : url;
}

/**
 * Encodes every collection's and item's metadata, its paths on the simulator made absolute with
 * `baseUrl` (left as written at load, when it is not known yet); one too large to go on chain is a
 * problem named by its path.
 */
export function scenarioMetadata(scenario: Scenario, problems: string[], baseUrl?: string): ScenarioMetadata {
  const encoded: ScenarioMetadata = { collections: new Map(), items: new Map() };
  const encode = (path: string, write: () => Hex): Hex | undefined => {
    try {
      return write();
    } catch (error) {
      if (!isApiError(error, ERRORS.METADATA_TOO_LARGE)) throw error;
      problems.push(`${path}: ${error.errors[0]}`);
      return undefined;
    }
  };
  scenario.collections.forEach((collection, i) => {
    const metadata = encode(`collections[${i}]`, () =>
      encodeCollectionDescription(collection.name, described(collection, baseUrl)),
    );
    if (metadata) encoded.collections.set(collection.id, metadata);
  });
  scenario.items.forEach((item, i) => {
    const metadata = encode(`items[${i}]`, () => encodeItemDescription(itemDescription(item, baseUrl)));
    if (metadata) encoded.items.set(item.id, metadata);
  });
  return encoded;
}

function described(collection: ScenarioCollection, baseUrl: string | undefined) {
  const { description, genre, image, imageHash, website, isVerified } = collection;
  return {
    description,
    genre,
    image: onSimulator(image, baseUrl),
    imageHash,
    slug: collection.slug ?? slugify(collection.name),
    website: onSimulator(website, baseUrl),
    isVerified,
  };
}

function itemDescription(item: ScenarioItem, baseUrl: string | undefined) {
  return {
    name: item.name,
    description: item.description ?? "",
    imageUrl: onSimulator(item.imageUrl ?? "", baseUrl),
    fileType: item.fileType ?? "image/png",
    properties: (item.properties ?? []).map(({ name, value, static: isStatic }) => ({
      name,
      value,
      static: isStatic ?? false,
    })),
    isConsumable: item.isConsumable ?? false,
  };
}
