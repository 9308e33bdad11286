import type { Context } from "koa";
import { apiError, ERRORS } from "../core/errors.ts";
import { mintItem as mintOperation } from "../schemas/operations.ts";
import { mintItem } from "../services/mint-item.ts";
import type { RouteDeps } from "./deps.ts";
import { FailedKeys } from "./failed-keys.ts";
import { handle } from "./handle.ts";
import { mintBodyFromForm } from "../schemas/mint-form.ts";

/** Mints a new item as the API key's developer wallet; an address that keeps sending unknown keys is slowed down. */
export const mintRoute = (deps: RouteDeps) => {
  const failedKeys = new FailedKeys();
  return handle(mintOperation, {
    admit(ctx, { query }) {
      const wait = failedKeys.retryAfter(ctx.ip);
      if (wait > 0) {
        ctx.set("retry-after", String(wait));
        throw apiError(ERRORS.TOO_MANY_UNKNOWN_KEYS, {}, { errors: [`retry in ${wait} s`] });
      }
      const account = deps.accounts.byApiKey(query.apiKey);
      if (!account) {
        failedKeys.record(ctx.ip);
        throw apiError(ERRORS.UNKNOWN_API_KEY, {});
      }
      if (!ctx.is("application/json", "application/x-www-form-urlencoded")) {
        throw apiError(
          ERRORS.UNSUPPORTED_MEDIA_TYPE,
          { expected: "application/json (or a form)" },
          { errors: [`content-type '${ctx.get("content-type") || "(none)"}' is not supported`] },
        );
      }
      return account;
    },
    bodyOf: (ctx: Context) =>
      ctx.is("application/x-www-form-urlencoded")
        ? mintBodyFromForm(ctx.request.body as Record<string, unknown>)
        : ctx.request.body,
    answer: ({ body }, account) => mintItem(deps, account, body),
  });
};
