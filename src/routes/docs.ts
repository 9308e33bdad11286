import { createReadStream } from "node:fs";
import type Router from "@koa/router";
import { apiError, ERRORS } from "../core/errors.ts";
import { DOCS_ASSETS, DOCS_HTML, DOCS_INIT_JS, docsAssetPath } from "../openapi/docs-page.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";

/**
 * GET /openapi.json (the document built from the schemas) and GET /docs (an API reference page
 * that needs no network).
 */
export function docsRoute(router: Router): void {
  // Built once per origin it is asked for: its `servers` names the simulator as the caller reaches it.
  let served: { origin: string; text: string } | undefined;
  router.get("/openapi.json", (ctx) => {
    const origin = `${ctx.protocol}://${ctx.host}`;
    if (served?.origin !== origin) served = { origin, text: JSON.stringify(buildOpenApiDocument(origin)) };
    ctx.type = "application/json";
    ctx.body = served.text;
  });
  router.get("/docs", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = DOCS_HTML;
  });
  router.get("/docs/init.js", (ctx) => {
    ctx.type = "text/javascript; charset=utf-8";
    ctx.body = DOCS_INIT_JS;
  });
  router.get("/docs/:asset", (ctx) => {
    const path = docsAssetPath(ctx.params.asset!);
    if (!path) throw apiError(ERRORS.NOT_FOUND, { what: `Documentation asset ${ctx.params.asset}` });
    ctx.type = DOCS_ASSETS[ctx.params.asset!]!;
    ctx.set("cache-control", "public, max-age=3600");
    ctx.body = createReadStream(path);
  });
}
