import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type Router from "@koa/router";
import type { RouterMiddleware } from "@koa/router";
import { apiError, ERRORS } from "../core/errors.ts";

// The dashboard (dashboard/ at the package's root): a page, its modules and style, served as
// they are written, read once; and its chart library, uPlot, and the parser of the event stream it
// follows, eventsource-parser, from node_modules. Nothing comes from a CDN.
const DIR = fileURLToPath(new URL("../../dashboard/", import.meta.url));
const ASSETS = ["app.js", "charts.js", "lib.js", "live.js", "requests.js", "views.js", "style.css"];
/** Where a vendored file is in its package's dist/: the charts' under their names, the event stream's parser as one module. */
const VENDOR: Record<string, [string, string]> = {
  "uPlot.esm.js": ["uplot", "uPlot.esm.js"],
  "uPlot.min.css": ["uplot", "uPlot.min.css"],
  "parse.js": ["eventsource-parser", "index.js"],
};
const vendorFile = ([pkg, file]: [string, string]) =>
  join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), "dist", file);
const read = (name: string) => readFileSync(name in VENDOR ? vendorFile(VENDOR[name]!) : join(DIR, name), "utf8");

/** GET / (the dashboard) and its assets under /dashboard/. */
export function dashboardRoute(router: Router): void {
  let page: string | undefined;
  const files = new Map<string, string>();
  router.get("/", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = page ??= read("index.html");
  });
  const serve =
    (served: readonly string[]): RouterMiddleware =>
    (ctx) => {
      const name = ctx.params.asset!;
      if (!served.includes(name)) throw apiError(ERRORS.NOT_FOUND, { what: `Dashboard asset ${name}` });
      if (!files.has(name)) files.set(name, read(name));
      ctx.type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
      ctx.body = files.get(name);
    };
  router.get("/dashboard/:asset", serve(ASSETS));
  router.get("/dashboard/vendor/:asset", serve(Object.keys(VENDOR)));
}
