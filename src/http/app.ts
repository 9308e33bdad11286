import Koa from "koa";
import Router from "@koa/router";
import cors from "@koa/cors";
import { bodyParser } from "@koa/bodyparser";
import { errorBodies } from "./error-bodies.ts";
import { readiness } from "./readiness.ts";
import type { RouteDeps } from "../routes/deps.ts";
import { apiRoutes } from "../routes/api.ts";
import { docsRoute } from "../routes/docs.ts";

export interface AppDeps extends RouteDeps {
  /** The world is replayed and indexed; until then every request answers 503. */
  isReady(): boolean;
  /** Largest accepted request body. */
  bodyLimit: string;
}

/** The HTTP face of the simulator: JSON errors outermost, then CORS, readiness, body parsing and the routes. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  const router = new Router();
  for (const route of [apiRoutes, docsRoute]) route(router, deps);
  app.use(errorBodies((message) => console.error(message)));
  app.use(cors());
  app.use(readiness(deps.isReady));
  app.use(
    bodyParser({
      enableTypes: ["json", "form"],
      jsonLimit: deps.bodyLimit,
      formLimit: deps.bodyLimit,
      onError: (error) => {
        throw error;
      },
    }),
  );
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
