import type { IncomingHttpHeaders } from "node:http";
import { maskSecrets } from "../control/request-log.ts";
import { API_KEY_HEADER } from "../schemas/common.ts";

/**
 * The secrets the proxied traffic carried (the `apiKey` query's values, the API key header, `Authorization`), kept in
 * memory only so that every log line, event and file the proxy writes masks them wherever they stand.
 */
export class Secrets {
  readonly #seen = new Set<string>();

  /** Notes the secrets one request carries. */
  noteRequest(url: URL, headers: IncomingHttpHeaders): void {
    for (const value of url.searchParams.getAll("apiKey")) this.#note(value);
    for (const name of [API_KEY_HEADER.toLowerCase(), "authorization"]) {
      const value = headers[name];
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        this.#note(one);
        this.#note(one.replace(/^\s*\w+\s+/, ""));
      }
    }
  }

  get known(): Iterable<string> {
    return this.#seen;
  }

  /** The text with every secret masked: by the name it goes under, and each one seen wherever it stands. */
  mask(text: string): string {
    return maskSecrets(text, this.#seen);
  }

  #note(value: string): void {
    const secret = value.trim();
    if (secret.length > 0) {
      this.#seen.add(secret);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) this.#seen.add(encoded);
    }
  }
}
