import type { ApiAccount } from "../core/config.ts";
import { apiError, ERRORS } from "../core/errors.ts";
import { mintBodyFromForm } from "../schemas/mint-form.ts";
import type { mintItem } from "../schemas/operations.ts";
import { planMint } from "../services/mint-plan.ts";
import { FailedKeys } from "./failed-keys.ts";
import type { PipelineDeps, WriteHandler } from "./handlers.ts";

const FORM = "application/x-www-form-urlencoded";

/**
 * Mints a new item as the API key's developer wallet (`send`), once the API decided it may (`planMint`); an address
 * that keeps sending unknown keys is slowed down.
 */
export const mintWrite = ({ chains, accounts, send }: PipelineDeps): WriteHandler<typeof mintItem, ApiAccount> => {
  const failedKeys = new FailedKeys();
  return {
    kind: "write",
    admit(request, { query }) {
      const wait = failedKeys.retryAfter(request.client);
      if (wait > 0) {
        request.setHeader("retry-after", String(wait));
        throw apiError(ERRORS.TOO_MANY_UNKNOWN_KEYS, {}, { errors: [`retry in ${wait} s`] });
      }
      const account = accounts.byApiKey(query.apiKey);
      if (!account) {
        failedKeys.record(request.client);
        throw apiError(ERRORS.UNKNOWN_API_KEY, {});
      }
      if (!request.is(["application/json", FORM])) {
        throw apiError(
          ERRORS.UNSUPPORTED_MEDIA_TYPE,
          { expected: "application/json (or a form)" },
          { errors: [`content-type '${request.contentType || "(none)"}' is not supported`] },
        );
      }
      return account;
    },
    bodyOf: (request) =>
      request.is([FORM]) ? mintBodyFromForm(request.body as Record<string, unknown>) : request.body,
    answer: async ({ body }, account) => send(account, await planMint(chains, body)),
  };
};
