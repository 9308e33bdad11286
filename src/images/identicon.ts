import { createHash } from "node:crypto";
import { toPng, toSvg, type JdenticonConfig } from "jdenticon";
import type { ImageFormat } from "../schemas/image.ts";

/** A rendered image: its bytes and the tag a client can revalidate it by. */
export interface Picture {
  bytes: Buffer;
  etag: string;
}

// The same picture is asked for again and again (a page of items, a game's loader): renders are
// kept, up to a bound (a 512 px PNG is about 5 kB and takes a few milliseconds to draw).
const KEPT = 2_000;
const kept = new Map<string, Picture>();

/**
 * The picture of `seed` (an identicon, jdenticon), on a dark tile of its own hue: the same seed,
 * format and size give the same bytes on every machine and every run.
 */
export function picture(seed: string, format: ImageFormat, size: number): Picture {
  const key = `${format}:${size}:${seed}`;
  const found = kept.get(key);
  if (found) {
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  const bytes = draw(seed, format, size);
  const made = { bytes, etag: `"${createHash("sha1").update(bytes).digest("base64url")}"` };
  kept.set(key, made);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return made;
}

/** Draws the picture afresh (`picture` keeps what it drew). */
export function draw(seed: string, format: ImageFormat, size: number): Buffer {
  const config = configFor(seed);
  return format === "png" ? toPng(seed, size, config) : Buffer.from(toSvg(seed, size, config));
}

function configFor(seed: string): JdenticonConfig {
  const hue = createHash("sha256").update(seed).digest().readUInt16BE(0) % 360;
  return {
    hues: [hue],
    lightness: { color: [0.45, 0.75], grayscale: [0.35, 0.8] },
    saturation: { color: 0.6, grayscale: 0.1 },
    backColor: hslToHex(hue, 0.3, 0.16),
    padding: 0.12,
  };
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
