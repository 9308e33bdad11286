import type Router from "@koa/router";
import type { Middleware } from "koa";
import { SERVED_OPERATIONS, type OperationId } from "../schemas/operations.ts";
import { AnswerBytes } from "./answer-bytes.ts";
import { collectionRoute } from "./collection.ts";
import { collectionsRoute } from "./collections.ts";
import type { RouteDeps } from "./deps.ts";
import { imagePngRoute, imageSvgRoute } from "./images.ts";
import { itemEventsRoute } from "./item-events.ts";
import { metadataRoute } from "./metadata.ts";
import { mintRoute } from "./mint.ts";

/** The handler of each operation of the route table. */
const HANDLERS: Record<OperationId, (deps: RouteDeps, answers: AnswerBytes) => Middleware> = {
  mintItem: mintRoute,
  getItemEvents: itemEventsRoute,
  getCollection: collectionRoute,
  listCollections: collectionsRoute,
  getItemMetadata: metadataRoute,
  getImagePng: imagePngRoute,
  getImageSvg: imageSvgRoute,
};

/** Serves every operation of the table at its method and path; the reads share one app's answers kept as bytes. */
export function apiRoutes(router: Router, deps: RouteDeps): void {
  const answers = new AnswerBytes();
  for (const operation of SERVED_OPERATIONS)
    router[operation.method](operation.path, HANDLERS[operation.operationId](deps, answers));
}
