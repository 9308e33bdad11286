import { createHash } from "node:crypto";
import { toPng, toSvg } from "jdenticon";
import type { ImageFormat } from "../schemas/image.ts";
import { identiconConfig } from "./identicon-config.ts";

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
  const config = identiconConfig(seed);
  return format === "png" ? toPng(seed, size, config) : Buffer.from(toSvg(seed, size, config));
}
