import type { Middleware } from "koa";
import { handle } from "../routes/handle.ts";
import { responseValidator } from "../schemas/validate.ts";
import { applyScenario, FRAGMENT_BODY_LIMIT, getWorld } from "../schemas/world-operations.ts";
import type { Control } from "./control.ts";

/**
 * The route a fragment is posted to, and the body it may have: a fragment may be as large as a world (the app's body
 * parser reads it so).
 */
export const FRAGMENT_ROUTE = { path: applyScenario.path, bodyLimit: FRAGMENT_BODY_LIMIT } as const;

const checkArranged = responseValidator(applyScenario.response);

/** The handlers of the operations over the world as a whole: what it names, and fragments applied to it. */
export function worldHandlers(control: Control): Record<"getWorld" | "applyScenario", Middleware> {
  return {
    getWorld: handle(getWorld, { answer: async () => (await control.chains.sync(), control.world()) }),
    // The fragment's own checks read its body (src/arrange/parse.ts): they word each problem as a scenario file's are,
    // by JSON path, and judge a timeline entry by its own action only (the discriminator).
    applyScenario: async (ctx) => {
      ctx.body = checkArranged(await control.arrange(ctx.request.body));
    },
  };
}
