// The generator's vocabulary: names of collections, items, accounts and their traits.

/** A list of words as written: separated by spaces or line breaks. */
const words = (list: string) => list.trim().split(/\s+/);

export const FIRST_WORDS = words(`
  Dragon Pixel Neon Skyline Harbor Crystal Shadow Iron Velvet Solar Lunar Ember Frost Arcane Clockwork Jade Cobalt
  Thunder Whisper Golden Wild Ancient Cyber Mystic Rogue Silent Crimson Emerald Storm Nova
`);
export const SECOND_WORDS = words(`
  Riders Potions Relics Racers Tiles Legends Forge Guardians Pets Blades Kingdoms Cards Tracks Beasts Skies Voyagers
  Titans Gardens Heroes Shards Keys Masks Runes Drifters Sprites
`);
export const COLLECTOR_NAMES = words(`
  alice bob carol dave erin frank grace heidi ivan judy ken laura mallory nia oscar peggy quinn rupert sybil trent uma
  victor wendy xavier yara zane amir bea chen dara eli fatima goro hana ines jon kira liam mei noor
`);

export type Genre = "Gaming" | "Art" | "Collectibles" | "Music" | "Sports";
export const GENRES: [Genre, number][] = [
  ["Gaming", 45],
  ["Art", 20],
  ["Collectibles", 15],
  ["Music", 10],
  ["Sports", 10],
];
export const ITEM_NOUNS: Record<Genre, string[]> = {
  Gaming: words(`
    Sword Shield Potion Helmet Boots Amulet Ring Bow Staff Mount Skin Emote Banner Gem Scroll Key Chest Pickaxe
  `),
  Art: ["Study", "Portrait", "Landscape", "Sketch", "Print", "Fragment", "Composition", "Nocturne"],
  Collectibles: ["Card", "Badge", "Sticker", "Figurine", "Coin", "Stamp", "Pin"],
  Music: ["Track", "Album", "Ticket", "Backstage Pass", "Vinyl", "Demo"],
  Sports: ["Jersey", "Ball", "Trophy", "Highlight", "Season Pass", "Medal"],
};
export const ITEM_ADJECTIVES = words(`
  Iron Steel Flame Frost Shadow Royal Ancient Lucky Swift Cursed Blue Silent Golden Tiny Grand
`);
export const RARITIES = ["Common", "Uncommon", "Rare", "Epic", "Legendary"];
export const ELEMENTS = ["Fire", "Water", "Earth", "Air", "Void"];
export const FILE_TYPES: [string, number][] = [
  ["image/png", 60],
  ["image/jpeg", 20],
  ["image/gif", 8],
  ["image/webp", 8],
  ["video/mp4", 4],
];
export const DESCRIPTIONS: Record<Genre, string[]> = {
  Gaming: [
    "Gear, mounts and consumables for the {name} campaign.",
    "Everything a raid party needs, from {name}.",
    "Season items of {name}: craft, trade, consume.",
  ],
  Art: [
    "Hand-drawn works from the {name} studio.",
    "A generative series: {name}.",
    "Limited prints and one-offs of {name}.",
  ],
  Collectibles: ["Trading cards and badges of {name}.", "Collect the full {name} set."],
  Music: ["Tracks, passes and tickets of {name}.", "Live recordings and backstage passes from {name}."],
  Sports: ["Highlights and memorabilia of {name}.", "Season passes and jerseys of the {name} league."],
};

export const HOT_ITEMS = {
  coin: { name: "Gold Coin", description: "The currency of the realm; spend it, trade it, melt it." },
  boost: { name: "Nitro Boost", description: "One use: a burst of speed." },
  shard: { name: "Mana Shard", description: "Crystallised mana, traded by the handful." },
};

export const DEVELOPERS = [
  { name: "studio", apiKey: "demo-studio-key" },
  { name: "arcade", apiKey: "demo-arcade-key" },
  { name: "indie", apiKey: "demo-indie-key" },
  { name: "guest", apiKey: "demo-guest-key" },
];
