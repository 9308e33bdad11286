import type { Middleware } from "koa";
import { picture } from "../images/identicon.ts";
import { Pipeline } from "../pipeline/pipeline.ts";
import { sendMint, type MintDeps } from "../services/mint-item.ts";
import type { Accounts } from "../core/accounts.ts";

/**
 * The API on Koa: a request the route table serves is answered by the pipeline (one per app: its reads' answers kept
 * as bytes are the app's), with the body Koa's parser read; its refusals go to the app's error exit. Any other path is
 * left to the next middleware. An image is answered 304 when the client holds its ETag.
 */
export function apiAnswers(deps: RouteDeps): Middleware {
  const pipeline = new Pipeline({
    chains: deps.chains,
    accounts: deps.accounts,
    send: (account, mint) => sendMint(deps, account, mint),
    draw: picture,
  });
  return async (ctx, next) => {
    const routed = pipeline.router.route(ctx.method, ctx.path);
    if (!routed) return next();
    if ("allow" in routed) {
      ctx.status = 200;
      ctx.body = "";
      ctx.set("Allow", routed.allow.join(", "));
      return;
    }
    const { status, type, body } = await pipeline.answer(routed, {
      method: ctx.method,
      path: ctx.path,
      url: ctx.url,
      query: ctx.query,
      contentType: ctx.get("content-type"),
      header: (name) => ctx.get(name) || undefined,
      body: ctx.request.body,
      is: (types) => ctx.is(types),
      client: ctx.ip,
      setHeader: (name, value) => ctx.set(name, value),
    });
    ctx.status = status;
    ctx.set("content-type", type);
    // The answer's bytes as a Buffer over the same memory (Koa sends a Buffer as it is).
    ctx.body = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (routed.operation.media && ctx.fresh) ctx.status = 304;
  };
}

/** What the API's Koa face gives the pipeline: what a mint is sent with (the chains, its patience), the API keys. */
export interface RouteDeps extends MintDeps {
  accounts: Accounts;
}
