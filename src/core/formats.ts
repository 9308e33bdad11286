import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";

// How the service writes the things it names: addresses, items, event ids, slugs, text as bytes. One place each.

/** Addresses are compared and answered in lower case. */
export function lowerAddress(address: string): Address {
  return address.toLowerCase() as Address;
}

/** An item as the original names it: `<chainId>-<collection>-<tokenId>`. */
export function itemRef(chainId: number, collection: Address, tokenId: bigint): string {
  return `${chainId}-${collection}-${tokenId}`;
}

/** A transfer's event id: `<Event>-<blockNumber>-<logIndex>`. */
export function transferEventId(kind: string, blockNumber: number, logIndex: number): string {
  return `${kind}-${blockNumber}-${logIndex}`;
}

/** A marketplace event's id: `<Event>-<listingId>-<transactionHash>-<logIndex>`. */
export function marketEventId(kind: string, listingId: bigint, transactionHash: Hex, logIndex: number): string {
  return `${kind}-${listingId}-${transactionHash}-${logIndex}`;
}

/**
 * A name as the last part of a URL: lower-case words joined by '-' ("Neon Drift #2" → "neon-drift-2"), letters without
 * their accents ("Été" → "ete").
 */
export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "collection"
  );
}

/**
 * The UTF-8 text of bytes written as hex (a log's `bytes`, the metadata on chain), as viem's `hexToString` reads it (a
 * sequence that is not UTF-8 reads as U+FFFD), decoded natively: a large world's start decodes one per item.
 */
export function hexToText(hex: Hex): string {
  return nodeBuffer ? nodeBuffer.from(hex.slice(2), "hex").toString("utf8") : utf8Decoder.decode(hexToBytes(hex));
}

/**
 * Text as its UTF-8 bytes written as hex, as viem's `stringToHex` writes it, but as one flat string: viem's is built a
 * byte at a time, a chain of hundreds of string pieces that the scenario's metadata (one per item) would keep in memory.
 */
export function textToHex(text: string): Hex {
  // Stryker disable next-line StringLiteral: Buffer reads an empty encoding name as UTF-8, its default
  return nodeBuffer ? `0x${nodeBuffer.from(text, "utf8").toString("hex")}` : bytesToHex(utf8Encoder.encode(text));
}

/** How many bytes the text takes as UTF-8. */
export function utf8Length(text: string): number {
  // Stryker disable next-line StringLiteral: Buffer reads an empty encoding name as UTF-8, its default
  return nodeBuffer ? nodeBuffer.byteLength(text, "utf8") : utf8Encoder.encode(text).length;
}

// Node's Buffer where there is one (native, and one flat string); the web's text codecs in a browser, where the MSW
// handlers fold a world's logs and describe a mocked mint's item.
const nodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
