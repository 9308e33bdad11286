import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importCollections } from "../import/import.ts";
import { keepAnswer } from "../import/polite-fetch.ts";
import { API_SPACE } from "../pipeline/pipeline.ts";
import { Router } from "../pipeline/pipeline.ts";
import { getCollection, getItemEvents, listCollections } from "../schemas/operations.ts";
import { upstreamUrl, type Outgoing, type Upstream } from "./forward.ts";
import { bodyText } from "./judge.ts";
import type { Secrets } from "./secrets.ts";

/** The reads that name collections: one collection, a page of them, an item's history. */
const router = new Router([getCollection, listCollections, getItemEvents], API_SPACE);

export interface Recorded {
  file: string;
  collections: number;
  /** Answers the import took from the proxied traffic, and those it fetched itself. */
  fromTraffic: number;
  fetched: number;
}

/**
 * `--record`: notes every collection the proxied traffic read (a collection's answer, a list page's collections, an
 * item history's address) and keeps each definitive GET answer (2xx, 404) in the import's cache, keyed by the URL as
 * the import reads it; at exit the import makes those collections a world, fetching only what the traffic did not
 * read. An answer whose URL or body holds a secret the traffic carried is not kept.
 */
export class Recording {
  readonly #collections = new Set<string>();
  readonly #cacheDir = mkdtempSync(join(tmpdir(), "nft-sim-record-"));
  readonly #upstream: URL;
  readonly #secrets: Secrets;

  constructor(upstream: URL, secrets: Secrets) {
    this.#upstream = upstream;
    this.#secrets = secrets;
  }

  note(outgoing: Outgoing, answer: Upstream): void {
    if (outgoing.method !== "GET") return;
    const url = upstreamUrl(this.#upstream, outgoing.url).href;
    const text = bodyText(answer);
    if (answer.status === 200) for (const address of collectionsRead(outgoing, text)) this.#collections.add(address);
    const definitive = (answer.status >= 200 && answer.status < 300) || answer.status === 404;
    if (!definitive || this.#secrets.mask(url) !== url || this.#secrets.mask(text) !== text) return;
    const contentType = answer.headers["content-type"];
    keepAnswer(this.#cacheDir, {
      url,
      status: answer.status,
      contentType: Array.isArray(contentType) ? contentType.join(", ") : (contentType ?? ""),
      text,
    });
  }

  get collections(): string[] {
    return [...this.#collections];
  }

  /**
   * The noted collections imported from the upstream and written to `file` as a world. `apiKey`, when given, is sent
   * as the read key's header only. Throws what the import throws (a `StartError`) or what writing throws.
   */
  async write(file: string, apiKey: string | undefined): Promise<Recorded> {
    const imported = await importCollections({
      from: this.#upstream.href,
      collections: this.collections,
      cacheDir: this.#cacheDir,
      ...(apiKey ? { apiKey } : {}),
    });
    writeFileSync(file, `${JSON.stringify(imported.scenario, null, 2)}\n`);
    return {
      file,
      collections: imported.collections.length,
      fromTraffic: imported.counts.fromCache,
      fetched: imported.counts.fetched,
    };
  }

  /** Removes the kept answers. */
  discard(): void {
    rmSync(this.#cacheDir, { recursive: true, force: true });
  }
}

/** The addresses of the collections one 200 answer shows, lowercased. */
function collectionsRead(outgoing: Outgoing, text: string): string[] {
  let routed;
  try {
    routed = router.route("GET", new URL(outgoing.url, "http://proxy").pathname);
  } catch {
    return []; // a path of the API that names no collection
  }
  if (!routed || "allow" in routed) return [];
  let body: { collection?: { address?: unknown }; collections?: { address?: unknown }[] } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const addresses =
    routed.operation.operationId === getItemEvents.operationId
      ? [routed.params.address]
      : routed.operation.operationId === getCollection.operationId
        ? [body?.collection?.address]
        : Array.isArray(body?.collections)
          ? body.collections.map((collection) => collection?.address)
          : [];
  return addresses.filter((address): address is string => typeof address === "string").map((a) => a.toLowerCase());
}
