import { Fragment } from "./fragment.ts";
import { controlOperations } from "./control-operation.ts";
import { ERRORS } from "../core/errors.ts";
import { NODE_REFUSED } from "./operations.ts";
import { ArrangeResponse, WorldResponse } from "./world.ts";

// The control operations over the world as a whole: what it names (GET /_sim/world), and
// fragments of the scenario format applied to it (POST /_sim/scenario).

/** A fragment may be as large as a world; the body parser takes this much on its route. */
export const FRAGMENT_BODY_LIMIT = "10mb";

export const WORLD = controlOperations({
  getWorld: {
    method: "get",
    path: "/_sim/world",
    summary: "The world by handle",
    description:
      "Every account the world names (its scenario's, those fragments and the control API added) with its address " +
      "and API key, each chain's core contracts (factory, marketplace, stablecoin), and its collections, items and " +
      "listings by handle: the names a fragment may use.",
    response: WorldResponse,
    errors: [ERRORS.CHAIN_DOWN, ERRORS.CHAIN_REPLACED],
  },
  applyScenario: {
    method: "post",
    path: "/_sim/scenario",
    summary: "Apply a scenario fragment",
    description:
      "Applies a fragment in the scenario format (`accounts`, `apiKeys`, `collections`, `items`, `timeline`, every " +
      "action of the format) to the running world, all or nothing. " +
      "Handles name the world's own accounts, collections, items and listings (GET /_sim/world) or new ones the " +
      "fragment defines. " +
      '`at` and `createdAt` are "now" when left out (the time a block mined now gets); `"+2h"` moves the chain\'s ' +
      "clock forward. " +
      "The fragment is checked whole before anything is sent; if a transaction still fails, every chain, the read " +
      "models, the API keys and the handles go back to where they were. " +
      "The answer resolves every new handle and gives each timeline entry's transaction. Journaled with `--state` " +
      "(replayed as applied). " +
      `The body may be up to ${FRAGMENT_BODY_LIMIT}.`,
    body: Fragment,
    response: ArrangeResponse,
    errors: [
      ERRORS.INVALID_FRAGMENT,
      ERRORS.NODE_CANNOT,
      ...NODE_REFUSED,
      ERRORS.FRAGMENT_BREAKS_RULE,
      ERRORS.FRAGMENT_REVERTED,
      ERRORS.CHAIN_UNAVAILABLE,
      ERRORS.CHAIN_DOWN,
      ERRORS.CHAIN_REPLACED,
    ],
  },
});
export const { getWorld, applyScenario } = WORLD;
