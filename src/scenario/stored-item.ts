import type { StoredItem } from "../schemas/mint.ts";
import type { ScenarioItem } from "./schema.ts";

/** The item as the metadata store keeps it (what a mint request would have stored). */
export function storedItem(item: ScenarioItem): StoredItem {
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
    isStackable: item.isStackable ?? true,
    isConsumable: item.isConsumable ?? false,
    initialSupply: item.initialSupply,
    maximumSupply: item.maximumSupply ?? item.initialSupply,
    royaltyFee: item.royaltyFee ?? 0,
  };
}
