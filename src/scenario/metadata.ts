import type { Hex } from "viem";
import { ERRORS, isApiError } from "../core/errors.ts";
import { encodeCollectionDescription, encodeItemDescription } from "../metadata/codec.ts";
import { slugify } from "../core/formats.ts";
import type { Scenario } from "../schemas/scenario.ts";

/** What the scenario's collections and items put on chain beside the chain's own facts, by id. */
export type ScenarioMetadata = ReturnType<typeof scenarioMetadata>;

/**
 * Encodes every collection's and item's metadata, its paths on the simulator made absolute with
 * `baseUrl` (left as written at load, when it is not known yet); one too large to go on chain is a
 * problem named by its path.
 */
export function scenarioMetadata(scenario: Scenario, problems: string[], baseUrl?: string) {
  const encoded = { collections: new Map<string, Hex>(), items: new Map<string, Hex>() };
  // A URL written as a path from `/` is on the simulator itself (`/images/<seed>.png`), as collection uris are.
  const onSimulator = (url: string) => (baseUrl !== undefined && url.startsWith("/") ? `${baseUrl}${url}` : url);
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
    const { name, slug = slugify(name), image, website } = collection;
    const described = { ...collection, slug, image: onSimulator(image), website: onSimulator(website) };
    const metadata = encode(`collections[${i}]`, () => encodeCollectionDescription(name, described));
    if (metadata) encoded.collections.set(collection.id, metadata);
  });
  scenario.items.forEach((item, i) => {
    const { description = "", imageUrl = "", fileType = "image/png", properties = [], isConsumable = false } = item;
    const metadata = encode(`items[${i}]`, () =>
      encodeItemDescription({
        name: item.name,
        description,
        imageUrl: onSimulator(imageUrl),
        fileType,
        properties: properties.map(({ name, value, static: isStatic = false }) => ({ name, value, static: isStatic })),
        isConsumable,
      }),
    );
    if (metadata) encoded.items.set(item.id, metadata);
  });
  return encoded;
}
