import type { Middleware } from "koa";
import { picture } from "../images/identicon.ts";
import type { ImageFormat } from "../schemas/image.ts";
import { getImagePng, getImageSvg } from "../schemas/operations.ts";
import { handle } from "./handle.ts";

/** The picture of the seed; a client may keep it a day, and revalidates it by its ETag (304). */
function imageRoute(operation: typeof getImagePng | typeof getImageSvg, format: ImageFormat): Middleware {
  const served = handle(operation, {
    admit(ctx, { params, query }) {
      const drawn = picture(params.seed, format, query.size);
      ctx.etag = drawn.etag;
      ctx.set("Cache-Control", "public, max-age=86400");
      return drawn;
    },
    answer: async (_request, drawn) => drawn.bytes,
  });
  return async (ctx, next) => {
    await served(ctx, next);
    if (ctx.fresh) ctx.status = 304;
  };
}

export const imagePngRoute = () => imageRoute(getImagePng, "png");
export const imageSvgRoute = () => imageRoute(getImageSvg, "svg");
