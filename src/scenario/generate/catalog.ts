import { slugify } from "../../core/formats.ts";
import { imagePath } from "../../schemas/image.ts";
import type { ScenarioCollection, ScenarioItem } from "../../schemas/scenario.ts";
import { formatOffset } from "../time.ts";
import { Market, type GenCollection, type GenItem } from "./market.ts";
import {
  DESCRIPTIONS,
  ELEMENTS,
  FILE_TYPES,
  FIRST_WORDS,
  GENRES,
  ITEM_ADJECTIVES,
  ITEM_NOUNS,
  RARITIES,
  SECOND_WORDS,
  type Genre,
} from "./names.ts";
import { DAY, hash, HOUR, MINUTE } from "./random.ts";

/**
 * A collection's website in a generated world: its page on the simulator's dashboard, so no world names a host on the
 * internet.
 */
const dashboardPage = (chainId: number, slug: string) => `/#/collection/${chainId}/${slug}`;

/** The generated world's collections and items: each made with its name, metadata and what happens to it first. */
export class Catalog extends Market {
  collections: GenCollection[] = [];
  names = new Set<string>();

  collection(
    chainId: number,
    options: {
      createdAt: number;
      genre?: Genre;
      owner?: string;
      verified?: boolean;
      /** No picture, website or description. */
      bare?: boolean;
    },
  ): GenCollection {
    const { rng } = this;
    let name = `${rng.pick(FIRST_WORDS)} ${rng.pick(SECOND_WORDS)}`;
    for (let n = 2; this.names.has(name); n++) name = `${name.replace(/ [0-9]+$/, "")} ${n}`;
    this.names.add(name);
    const slug = slugify(name);
    const genre = options.genre ?? rng.weighted(GENRES);
    const owner =
      options.owner ??
      rng.weighted([
        ["studio", 60],
        ["arcade", 25],
        ["indie", 15],
      ] as const);
    const minters =
      owner === "studio" && rng.chance(0.5) ? ["arcade"] : owner === "arcade" && rng.chance(0.3) ? ["studio"] : [];
    const hasImage = !options.bare && rng.chance(0.7);
    const spec: ScenarioCollection = {
      id: slug,
      chainId,
      name,
      description: options.bare || rng.chance(0.1) ? "" : rng.pick(DESCRIPTIONS[genre]).replace("{name}", name),
      genre,
      image: hasImage ? imagePath(slug) : "",
      imageHash: hasImage ? `Qm${hash(rng, 44)}` : "",
      slug,
      website: !options.bare && rng.chance(0.5) ? dashboardPage(chainId, slug) : "",
      owner,
      minters,
      isVerified: options.verified ?? rng.chance(0.92),
      createdAt: formatOffset(options.createdAt),
    };
    const collection: GenCollection = {
      spec,
      chainId,
      createdAt: options.createdAt,
      genre,
      creators: [owner, ...minters],
      stablecoinShare: rng.pick([0, 0.3, 0.6, 1]),
      items: [],
    };
    this.collections.push(collection);
    return collection;
  }

  items(collection: GenCollection, count: number): void {
    const { rng } = this;
    const used = new Set<string>();
    for (let i = 0; i < count; i++) {
      const stackable = rng.chance(collection.genre === "Gaming" ? 0.7 : collection.genre === "Art" ? 0.3 : 0.55);
      let name = `${rng.pick(ITEM_ADJECTIVES)} ${rng.pick(ITEM_NOUNS[collection.genre])}`;
      for (let n = 2; used.has(name); n++) name = `${name.replace(/ #[0-9]+$/, "")} #${n}`;
      used.add(name);
      const initialSupply = stackable ? rng.pick([1, 5, 10, 25, 50, 100, 250, 1000]) : rng.int(1, 5);
      const spec: ScenarioItem = {
        id: `${collection.spec.id}.${slugify(name)}`,
        collection: collection.spec.id,
        name,
        description: rng.chance(0.8) ? `${name} from ${collection.spec.name}.` : "",
        imageUrl: rng.chance(0.85) ? imagePath(`${collection.spec.id}-${i + 1}`) : "",
        fileType: rng.weighted(FILE_TYPES),
        properties: this.properties(collection.genre),
        isStackable: stackable,
        isConsumable: stackable && collection.genre === "Gaming" && rng.chance(0.4),
        initialSupply,
        maximumSupply: stackable ? initialSupply * rng.pick([1, 1, 2, 4, 10]) : initialSupply,
        royaltyFee: rng.pick([0, 0, 25, 50, 75, 100, 150, 250]),
      };
      const earliest = collection.createdAt + HOUR;
      const addedAt = i < 3 ? rng.time(earliest, Math.min(earliest + 5 * DAY, -HOUR)) : rng.time(earliest, -DAY);
      this.addItem(collection, spec, addedAt);
    }
  }

  properties(genre: Genre): ScenarioItem["properties"] {
    const { rng } = this;
    const all = [
      { name: "rarity", value: rng.pick(RARITIES), static: true },
      { name: "level", value: String(rng.int(1, 50)), static: false },
      {
        name: genre === "Gaming" ? "element" : "edition",
        value: genre === "Gaming" ? rng.pick(ELEMENTS) : `${rng.int(1, 10)} of 10`,
        static: true,
      },
      { name: "season", value: String(rng.int(1, 4)), static: true },
    ];
    return all.slice(0, rng.int(0, all.length));
  }

  addItem(collection: GenCollection, spec: ScenarioItem, addedAt: number): GenItem {
    const item: GenItem = { spec, collection, addedAt, tokens: [] };
    collection.items.push(item);
    const by = this.rng.pick(collection.creators);
    const to = this.rng.chance(0.6) ? by : this.rng.pick(this.collectors);
    this.timeline.schedule(addedAt, () => {
      const copies = spec.isStackable ? 1 : spec.initialSupply;
      for (let copy = 1; copy <= copies; copy++) {
        const supply = spec.isStackable ? spec.initialSupply : 1;
        item.tokens.push({
          item,
          copy,
          supply,
          max: spec.isStackable ? spec.maximumSupply! : 1,
          balances: new Map([[to, supply]]),
        });
      }
      this.timeline.emit(addedAt, { action: "addItem", item: spec.id, by, to });
    });
    for (
      let i = this.rng.weighted([
        [0, 45],
        [1, 40],
        [2, 15],
      ] as const);
      i > 0;
      i--
    )
      this.timeline.schedule(this.rng.time(addedAt + HOUR, Math.min(addedAt + 30 * DAY, -10 * MINUTE)), () =>
        this.giveAway(item),
      );
    if (spec.isStackable && spec.maximumSupply! > spec.initialSupply && this.rng.chance(0.35)) {
      this.timeline.schedule(this.rng.time(addedAt + DAY, -HOUR), () => this.mintMore(item, by));
    }
    if (spec.isConsumable) {
      for (let i = this.rng.int(1, 2); i > 0; i--)
        this.timeline.schedule(this.rng.time(addedAt + 2 * DAY, -30 * MINUTE), () => this.burn(item));
    }
    return item;
  }
}
