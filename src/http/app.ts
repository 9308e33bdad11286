import Koa from "koa";
import Router from "@koa/router";
import cors from "@koa/cors";
import { bodyParser } from "@koa/bodyparser";
import { apiError, ERRORS, methodNotAllowed, type ErrorDescriptor } from "../core/errors.ts";
import { errorExit } from "./error-exit.ts";
import { readiness, type Drain, guardAccess } from "./access.ts";
import type { Control } from "../control/control.ts";
import type { AccessPolicy } from "../access/policy.ts";
import { controlRoutes, FRAGMENT_ROUTE } from "../control/routes.ts";
import { apiAnswers, type RouteDeps } from "../routes/api.ts";
import { dashboardRoute } from "../routes/dashboard.ts";
import { docsRoute } from "../routes/docs.ts";
import type { PushedEvents } from "../events/events.ts";
import type { SimulatorOptions } from "../core/config.ts";

export interface AppDeps extends RouteDeps, Pick<SimulatorOptions, "bodyLimit"> {
  /** The world is replayed and indexed; until then every request answers 503. */
  isReady(): boolean;
  /**
   * Resolves once the chains hold the world (a world answered from the cache is read before); writes and the control
   * API wait for it.
   */
  live(): Promise<unknown>;
  /** Refuses new requests once the simulator is stopping, and knows which are in flight. */
  drain: Drain;
  /** Who may change state or use the control API (Host, Origin, token, body type). */
  access: AccessPolicy;
  /** The control API (`/_sim`): faults and the request log act on every request. */
  control: Control;

  /** Events pushed (`/_sim/events`, `/_sim/webhooks`). */
  events: PushedEvents;
}

/** The body parser's refusals (http-errors, by status) as the catalog's; any other failure is the parser's own bug. */
function parserRefusal(error: Error & { status?: number; code?: string }, ctx: Koa.Context): unknown {
  const coding = ctx.get("content-encoding");
  const refused = (descriptor: ErrorDescriptor, line: string) => apiError(descriptor, {}, { errors: [line] });
  // inflation's refusal of a content-encoding it does not decode.
  if (error.status === 415 && error.message.startsWith("Unsupported Content-Encoding"))
    return refused(
      ERRORS.UNSUPPORTED_ENCODING,
      `content-encoding '${coding}' is not supported: send the body uncompressed, or in gzip, deflate or br`,
    );
  // zlib's and brotli's refusals of a body that is not in the coding its header names.
  if (typeof error.code === "string" && /^(Z_|ERR_BROTLI|ERR__ERROR)/.test(error.code))
    return refused(ERRORS.INVALID_JSON, `the body is not in the content-encoding it names ('${coding}')`);
  switch (error.status) {
    case 400:
      return refused(ERRORS.INVALID_JSON, error.message ?? "invalid JSON");
    case 413:
      return apiError(ERRORS.BODY_TOO_LARGE);
    case 415:
      return apiError(ERRORS.UNSUPPORTED_MEDIA_TYPE, { expected: "application/json (or a form)" });
    default:
      return error;
  }
}

/** The methods whose bodies are read; a read passes the parser by. */
const PARSED_METHODS = ["POST", "PUT", "PATCH"];

/**
 * The HTTP face of the simulator: the error exit outermost (JSON errors, then the request log), then the shutdown
 * drain, CORS, the write guard, the control API's guard, readiness, fault rules, body parsing and the routes (API and
 * control).
 */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  const router = new Router();
  for (const route of [docsRoute, dashboardRoute]) route(router);
  controlRoutes(router, deps.control, deps.events);
  app.use(errorExit(deps.control.requests, (message) => console.error(message)));
  app.use(deps.drain.middleware());
  app.use(cors());
  app.use(guardAccess(deps.access));
  app.use(readiness(deps.isReady, deps.live));
  app.use(deps.control.faults.middleware());
  const parser = (limit: string) =>
    bodyParser({
      parsedMethods: PARSED_METHODS,
      enableTypes: ["json", "form"],
      jsonLimit: limit,
      formLimit: limit,
      onError: (error, ctx) => {
        throw parserRefusal(error, ctx);
      },
    });
  // A fragment of the scenario format may be as large as a world.
  const [parseBody, parseFragment] = [parser(deps.bodyLimit), parser(FRAGMENT_ROUTE.bodyLimit)];
  app.use((ctx, next) => {
    if (!PARSED_METHODS.includes(ctx.method)) return next();
    // Content codings in any case (RFC 9110 has them case-insensitive; the parser knows them in lower case).
    const coding = ctx.req.headers["content-encoding"];
    if (coding !== undefined) ctx.req.headers["content-encoding"] = coding.trim().toLowerCase();
    return (ctx.path === FRAGMENT_ROUTE.path ? parseFragment : parseBody)(ctx, next);
  });
  app.use(apiAnswers(deps));
  app.use(router.routes());
  app.use(methodRefusals(router.allowedMethods()));
  return app;
}

/**
 * @koa/router's refusals of a method (405, and 501 for a method it does not know), with the `Allow` it set, as the
 * catalog's 405 with that `Allow`.
 */
export function methodRefusals(allowedMethods: ReturnType<Router["allowedMethods"]>): Koa.Middleware {
  return async (ctx, next) => {
    await allowedMethods(ctx as Parameters<typeof allowedMethods>[0], next);
    if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined)
      throw methodNotAllowed(
        String(ctx.response.get("allow") ?? "")
          .split(/,\s*/)
          .filter(Boolean),
      );
  };
}
