import fc from "fast-check";
import { hexToString } from "viem";
import { describe, expect, it } from "vitest";
import {
  decodeCollectionDescription,
  decodeItemDescription,
  encodeCollectionDescription,
  encodeItemDescription,
} from "../../src/metadata/codec.ts";
import { ERRORS } from "../../src/core/errors.ts";
import { slugify } from "../../src/core/formats.ts";
import type { ItemDescription } from "../../src/schemas/item.ts";
import {
  COLLECTION_METADATA_MAX_BYTES,
  ITEM_METADATA_MAX_BYTES,
  type CollectionDescription,
} from "../../src/schemas/on-chain-metadata.ts";

// Metadata goes on chain as compact JSON and comes back from the logs: whatever the API accepted
// must read back the same, and whatever bytes anyone else put on chain must read as an item's
// metadata or as nothing, never throw.

const text = (maxLength: number, minLength = 0) => fc.string({ unit: "grapheme", minLength, maxLength });
const item: fc.Arbitrary<ItemDescription> = fc.record({
  name: text(60, 1),
  description: text(200),
  imageUrl: text(80),
  fileType: fc.constantFrom("image/png", "image/jpeg", "model/gltf+json", "video/mp4"),
  properties: fc.array(fc.record({ name: text(20, 1), value: text(40), static: fc.boolean() }), { maxLength: 6 }),
  isConsumable: fc.boolean(),
});
const collection = (name: string): fc.Arbitrary<CollectionDescription> =>
  fc.record({
    description: text(200),
    genre: text(20),
    image: text(80),
    imageHash: text(46),
    slug: fc.oneof(fc.constant(slugify(name)), fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/)),
    website: text(80),
    isVerified: fc.boolean(),
  });

describe("item metadata on chain", () => {
  it("reads back exactly what was written", () => {
    fc.assert(
      fc.property(item, (written) => {
        expect(decodeItemDescription(hexToString(encodeItemDescription(written)))).toEqual(written);
      }),
    );
  });

  it("leaves defaults out: a bare item is its name alone", () => {
    const bare = {
      name: "Sword",
      description: "",
      imageUrl: "",
      fileType: "image/png",
      properties: [],
      isConsumable: false,
    };
    expect(hexToString(encodeItemDescription(bare))).toBe('{"name":"Sword"}');
  });

  it("reads any text as an item's metadata or as nothing, never throwing", () => {
    const json = fc.oneof(
      fc.json(),
      fc.string(),
      item.map((written) => JSON.stringify({ ...written, extra: 1 })),
    );
    fc.assert(
      fc.property(json, (anything) => {
        const read = decodeItemDescription(anything);
        if (read === undefined) return;
        expect(typeof read.name).toBe("string");
        expect(read.name.length).toBeGreaterThan(0);
        expect(Object.keys(read).sort()).toEqual(
          ["description", "fileType", "imageUrl", "isConsumable", "name", "properties"].sort(),
        );
      }),
    );
  });

  it("refuses more than the limit before anything is sent", () => {
    const long = { name: "x", description: "d".repeat(5000), imageUrl: "", fileType: "image/png", isConsumable: false };
    const properties = Array.from({ length: 20 }, (_, i) => ({
      name: `p${i}`,
      value: "v".repeat(1000),
      static: false,
    }));
    expect(() => encodeItemDescription({ ...long, properties })).toThrow(
      expect.objectContaining({
        descriptor: ERRORS.METADATA_TOO_LARGE,
        errors: [expect.stringMatching(`more than the ${ITEM_METADATA_MAX_BYTES.toLocaleString("en")} allowed`)],
      }),
    );
    expect(() => encodeItemDescription({ ...long, properties: properties.slice(0, 5) })).not.toThrow();
  });
});

describe("collection metadata on chain", () => {
  it("reads back exactly what was written", () => {
    const named = text(40, 1).chain((name) => fc.tuple(fc.constant(name), collection(name)));
    fc.assert(
      fc.property(named, ([name, written]) => {
        expect(decodeCollectionDescription(name, hexToString(encodeCollectionDescription(name, written)))).toEqual(
          written,
        );
      }),
    );
  });

  it("any other text gives the defaults, the slug from the name", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), text(30, 1), (anything, name) => {
        const read = decodeCollectionDescription(name, anything);
        expect(read.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(typeof read.isVerified).toBe("boolean");
      }),
    );
    expect(decodeCollectionDescription("Neon Drift", "")).toEqual({
      description: "",
      genre: "",
      image: "",
      imageHash: "",
      slug: "neon-drift",
      website: "",
      isVerified: true,
    });
  });

  it("refuses more than the limit", () => {
    const big = {
      description: "d".repeat(5000),
      genre: "",
      image: "i".repeat(2000),
      imageHash: "",
      website: "w".repeat(2000),
    };
    expect(() => encodeCollectionDescription("Big", { ...big, slug: "big", isVerified: true })).toThrow(
      expect.objectContaining({ descriptor: ERRORS.METADATA_TOO_LARGE }),
    );
    const fits = { ...big, description: "d".repeat(3000), website: "" };
    expect(
      hexToString(encodeCollectionDescription("Big", { ...fits, slug: "big", isVerified: true })).length,
    ).toBeLessThanOrEqual(COLLECTION_METADATA_MAX_BYTES);
  });
});

describe("the exact bytes and limits", () => {
  const bare = { description: "", imageUrl: "", fileType: "image/png", properties: [], isConsumable: false };

  it("takes metadata of exactly the limit, and names what is one byte over, its size and the limit", () => {
    // {"name":"…"} is 11 bytes around the name.
    const name = (bytes: number) => "n".repeat(bytes - 11);
    expect(hexToString(encodeItemDescription({ ...bare, name: name(ITEM_METADATA_MAX_BYTES) })).length).toBe(
      ITEM_METADATA_MAX_BYTES,
    );
    const over = () => encodeItemDescription({ ...bare, name: name(ITEM_METADATA_MAX_BYTES + 1) });
    expect(over).toThrow(
      expect.objectContaining({
        descriptor: ERRORS.METADATA_TOO_LARGE,
        message: "The item's metadata is too large to go on chain",
        errors: [
          `the item's metadata is ${(ITEM_METADATA_MAX_BYTES + 1).toLocaleString("en")} bytes as it goes on chain ` +
            `(compact JSON), more than the ${ITEM_METADATA_MAX_BYTES.toLocaleString("en")} allowed`,
        ],
      }),
    );
    const collection = {
      description: "d".repeat(COLLECTION_METADATA_MAX_BYTES),
      genre: "",
      image: "",
      imageHash: "",
      slug: "big",
      website: "",
      isVerified: true,
    };
    expect(() => encodeCollectionDescription("Big", collection)).toThrow(
      expect.objectContaining({
        message: "The collection's metadata is too large to go on chain",
        errors: [expect.stringMatching(/^the collection's metadata is [\d,]+ bytes/)],
      }),
    );
  });

  it("counts bytes, not characters", () => {
    const name = "é".repeat((ITEM_METADATA_MAX_BYTES - 11) / 2);
    expect(() => encodeItemDescription({ ...bare, name })).not.toThrow();
    expect(() => encodeItemDescription({ ...bare, name: `${name}é` })).toThrow(
      expect.objectContaining({ descriptor: ERRORS.METADATA_TOO_LARGE }),
    );
  });

  it("writes a collection of the defaults, its slug the one its name gives, as {}", () => {
    const defaults = {
      description: "",
      genre: "",
      image: "",
      imageHash: "",
      slug: "neon-drift-2",
      website: "",
      isVerified: true,
    };
    expect(hexToString(encodeCollectionDescription("Neon Drift #2", defaults))).toBe("{}");
    expect(hexToString(encodeCollectionDescription("Neon Drift #2", { ...defaults, slug: "neon" }))).toBe(
      '{"slug":"neon"}',
    );
    expect(hexToString(encodeCollectionDescription("Neon Drift #2", { ...defaults, isVerified: false }))).toBe(
      '{"isVerified":false}',
    );
  });

  it("reads an item's metadata with defaults filled in and unknown fields dropped, never coercing a type", () => {
    expect(decodeItemDescription('{"name":"Bare","rarity":"legendary"}')).toEqual({ name: "Bare", ...bare });
    expect(decodeItemDescription('{"name":5}')).toBeUndefined();
    expect(decodeItemDescription('{"name":"x","isConsumable":"true"}')).toBeUndefined();
    for (const text of ['{"description":"no name"}', "[1]", '"Sword"', "null", "", "{"])
      expect(decodeItemDescription(text), text).toBeUndefined();
  });

  it("reads a collection's metadata that breaks its schema as the defaults, the slug from the name", () => {
    const defaults = {
      description: "",
      genre: "",
      image: "",
      imageHash: "",
      slug: "cards",
      website: "",
      isVerified: true,
    };
    for (const text of ['{"isVerified":"yes"}', '{"genre":5}', "[1]", "null", "7", "{"])
      expect(decodeCollectionDescription("Cards", text), text).toEqual(defaults);
    expect(decodeCollectionDescription("Cards", '{"genre":"Art","rarity":1}')).toEqual({ ...defaults, genre: "Art" });
  });
});
