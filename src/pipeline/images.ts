import type { ImageFormat } from "../schemas/image.ts";
import type { getImagePng, getImageSvg } from "../schemas/operations.ts";
import type { MediaHandler, PipelineDeps } from "./handlers.ts";

/** The picture of the seed; a client may keep it a day, and revalidate it by its ETag. */
const image =
  (format: ImageFormat) =>
  ({ draw }: PipelineDeps): MediaHandler<typeof getImagePng | typeof getImageSvg> => ({
    kind: "media",
    answer({ params, query }, request) {
      const drawn = draw(params.seed, format, query.size);
      if (drawn.etag) request.setHeader("ETag", drawn.etag);
      request.setHeader("Cache-Control", "public, max-age=86400");
      return drawn;
    },
  });

export const imagePngMedia = image("png");
export const imageSvgMedia = image("svg");
