import { readFileSync } from "node:fs";
import type Router from "@koa/router";
import { notFound } from "../errors.ts";

// The dashboard (dashboard/ at the package's root): a page and its script and style, served as
// they are written, read once. Nothing comes from a CDN.
const DIR = new URL("../../dashboard/", import.meta.url);
const ASSETS: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};
const read = (name: string) => readFileSync(new URL(name, DIR), "utf8");

/** GET / (the dashboard) and its assets under /dashboard/. */
export function dashboardRoute(router: Router): void {
  let page: string | undefined;
  const files = new Map<string, string>();
  router.get("/", (ctx) => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = page ??= read("index.html");
  });
  router.get("/dashboard/:asset", (ctx) => {
    const name = ctx.params.asset!;
    if (!(name in ASSETS)) throw notFound(`Dashboard asset ${name}`);
    if (!files.has(name)) files.set(name, read(name));
    ctx.type = ASSETS[name]!;
    ctx.body = files.get(name);
  });
}
