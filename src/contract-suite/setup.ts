import { StartError, START_ERRORS } from "../core/errors.ts";
import { Api } from "./http.ts";
import { CheckStopped } from "./stopped.ts";
import { paths, type Target } from "./target.ts";

/**
 * The suite could not run against the target: a set-up problem, not a contract violation (the command exits 2). One
 * line, naming what to pass.
 */
export function setupFailed(message: string): StartError {
  return new StartError(START_ERRORS.TARGET_UNUSABLE, message);
}

/** The probe must answer fast: a dead target is a set-up problem, not a wait. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * One look before any check: the target answers JSON at the collection list, any collection
 * named exists, and, when the suite is to mint, its key is accepted. Throws TARGET_UNUSABLE otherwise.
 */
export async function probeTarget(target: Target): Promise<void> {
  const api = new Api(target.baseUrl, { timeoutMs: PROBE_TIMEOUT_MS, apiKeyIn: target.apiKeyIn ?? "query" });
  const list = await reach(api, () => api.get(paths.collections));
  if (list.json === undefined)
    throw setupFailed(
      `${list.url} answered ${list.status} (${list.contentType || "no content-type"}), not JSON: is --base-url the ` +
        `API's root?`,
    );
  const collection = target.mintCollection ?? target.collection;
  if (collection) {
    const found = await reach(api, () => api.get(paths.collection(collection)));
    if (found.status === 404)
      throw setupFailed(`${api.baseUrl} has no collection ${collection}: pass --collection of one it lists`);
  }
  if (!target.allowWrites || !target.apiKey) return;
  if (!collection)
    throw setupFailed(
      `--allow-writes against ${api.baseUrl} needs --collection: a collection that --api-key may mint on`,
    );
  // An empty body is refused before anything is minted; an unknown key is refused before the body is read.
  const mint = await reach(api, () => api.post(paths.mint, { apiKey: target.apiKey }, {}));
  if (mint.status === 401 || mint.status === 403)
    throw setupFailed(
      `${api.baseUrl} refused the API key (${mint.status} on POST ${paths.mint}): pass --api-key of an account that ` +
        `may mint on --collection ${collection}`,
    );
}

async function reach<T>(api: Api, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof CheckStopped)) throw error;
    throw setupFailed(
      `${api.baseUrl} cannot be reached (${error.message.replace(/^the request failed: /, "")}): start it, or pass ` +
        `--base-url of a running server`,
    );
  }
}
