import { Type } from "@sinclair/typebox";
import { Closed } from "./common.ts";

// The simulator's own pictures: one deterministic image per seed, so every image URL a world
// holds answers offline. PNG for game engines (which load PNG or JPEG, not SVG), SVG for browsers.

export const IMAGE_FORMATS = { png: "image/png", svg: "image/svg+xml" } as const;
export type ImageFormat = keyof typeof IMAGE_FORMATS;

/** Where the simulator serves the image of `seed`, from its base URL: `/images/<seed>.png`. */
export function imagePath(seed: string, format: ImageFormat = "png"): string {
  return `/images/${seed}.${format}`;
}

export const IMAGE_SEED_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$";

export const ImageParams = Closed({
  seed: Type.String({
    pattern: IMAGE_SEED_PATTERN,
    description:
      "any name of letters, digits, '.', '_' or '-' (up to 128): the same seed always gives the same picture",
  }),
});

export const DEFAULT_IMAGE_SIZE = 512;

export const ImageQuery = Closed({
  size: Type.Integer({
    minimum: 16,
    maximum: 1024,
    default: DEFAULT_IMAGE_SIZE,
    description: "width and height in pixels",
  }),
});

/** The bytes of an image: a response the server sends as they are, not JSON. */
const imageBytes = (format: ImageFormat) =>
  Type.Unsafe<Uint8Array | string>({ type: "string", contentMediaType: IMAGE_FORMATS[format] });

export const PngImage = imageBytes("png");
export const SvgImage = imageBytes("svg");
