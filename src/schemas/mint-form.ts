import { apiError, ERRORS } from "../core/errors.ts";

/**
 * A mint posted as a form (the Unity client's WWWForm) as its JSON body: the same fields as text,
 * `chainId` as a number and `item` as JSON. Anything unreadable is left for the schema to refuse.
 */
export function mintBodyFromForm(form: Record<string, unknown>): unknown {
  const body: Record<string, unknown> = { ...form };
  if (typeof body.chainId === "string" && /^[0-9]+$/.test(body.chainId)) body.chainId = Number(body.chainId);
  if (typeof body.item === "string") {
    try {
      body.item = JSON.parse(body.item);
    } catch {
      throw apiError(ERRORS.INVALID_REQUEST, { part: "body" }, { errors: ["body.item is not valid JSON"] });
    }
  }
  return body;
}
