import { createReadStream } from "node:fs";
import type Router from "@koa/router";
import { notFound } from "../errors.ts";
import { DOCS_ASSETS, DOCS_HTML, DOCS_INIT_JS, docsAssetPath } from "../openapi/docs-page.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";

/**
 * GET /openapi.json (the document built from the schemas), GET /docs (an API reference page
 * that needs no network), and GET / which leads there.
 */
export function docsRoute(router: Router): void {
  let document: string | undefined;
  router.get("/openapi.json", (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = "application/json";
    ctx.body = document;
  });
  router.get("/", (ctx) => ctx.redirect("/docs"));
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
    if (!path) throw notFound(`Documentation asset ${ctx.params.asset}`);
    ctx.type = DOCS_ASSETS[ctx.params.asset!]!;
    ctx.set("cache-control", "public, max-age=3600");
    ctx.body = createReadStream(path);
  });
}
