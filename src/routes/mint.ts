import type Router from "@koa/router";
import type { Context } from "koa";
import type { ApiAccount } from "../config.ts";
import { ApiError } from "../errors.ts";
import { MintBody, MintQuery, MintResponse } from "../schemas/mint.ts";
import { requestValidator, responseValidator } from "../schemas/validate.ts";
import { mintItem } from "../services/mint.ts";
import type { RouteDeps } from "./deps.ts";

const parseQuery = requestValidator(MintQuery, "query");
const parseBody = requestValidator(MintBody, "body");
const checkResponse = responseValidator(MintResponse);

/** POST /api/v2/item/new?apiKey=: mint a new item as the key's developer wallet. */
export function mintRoute(router: Router, deps: RouteDeps): void {
  router.post("/api/v2/item/new", async (ctx) => {
    const account = authenticate(deps, ctx);
    const body = parseBody(ctx.is("application/x-www-form-urlencoded") ? fromForm(ctx.request.body as Record<string, unknown>) : ctx.request.body);
    ctx.body = checkResponse(await mintItem(deps, account, body));
  });
}

function authenticate({ accounts }: RouteDeps, ctx: Context): ApiAccount {
  const apiKey = ctx.query.apiKey;
  if (apiKey === undefined || apiKey === "") throw new ApiError(401, "UNAUTHORIZED", "An apiKey query parameter is required");
  const { apiKey: key } = parseQuery({ apiKey });
  const account = accounts.byApiKey(key);
  if (!account) throw new ApiError(401, "UNAUTHORIZED", "Unknown apiKey");
  if (!ctx.is("application/json", "application/x-www-form-urlencoded")) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json (or a form)", [
      `content-type '${ctx.get("content-type") || "(none)"}' is not supported`,
    ]);
  }
  return account;
}

/**
 * Form posts (the Unity client's WWWForm) carry the same fields as text:
 * `chainId` as a number and `item` as JSON. Anything unreadable is left for the schema to refuse.
 */
function fromForm(form: Record<string, unknown>): unknown {
  const body: Record<string, unknown> = { ...form };
  if (typeof body.chainId === "string" && /^[0-9]+$/.test(body.chainId)) body.chainId = Number(body.chainId);
  if (typeof body.item === "string") {
    try {
      body.item = JSON.parse(body.item);
    } catch {
      throw new ApiError(400, "VALIDATION_FAILED", "The request body is invalid", ["body.item is not valid JSON"]);
    }
  }
  return body;
}
