import { API_KEY_HEADER } from "../schemas/common.ts";
import type { Context } from "koa";
import type { LoggedBody, LoggedRequest, LoggedRequestDetail, RequestLogQuery } from "../schemas/control.ts";
import { pathPattern } from "../core/path-pattern.ts";

/** The header the dashboard sends: its own polling would push a client's requests out of the log. */
export const DASHBOARD_HEADER = "x-sim-dashboard";
/** Left out: reads of the log itself, and the dashboard's page and files. */
const UNLOGGED = /^\/(_sim\/requests(\/|$)|dashboard\/|$)/;
/** Characters of a body the log shows. */
export const BODY_BOUND = 8_000;
/** Requests whose bodies are kept (the newest); older ones keep their summary only. */
const BODIES_KEPT = 200;

/** JSON sent as bytes (the reads' answers) is shown as the text it is. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/;

/** A request as the log keeps it: its time as a number, made a date only when the log is read. */
type Logged = Omit<LoggedRequest, "at"> & { at: number };

function shownEntry({ id, at, ...rest }: Logged): LoggedRequest {
  return { id, at: new Date(at).toISOString(), ...rest };
}

/** What is kept of a body until it is asked for: the answer's object is serialized only then. */
type KeptBody = { contentType: string; content: unknown } | null;

/** The last requests the simulator answered, newest first, at most `capacity` of them; bodies for the newest. */
export class RequestLog {
  readonly #capacity: number;
  readonly #knownKeys: () => Iterable<string>;
  #entries: Logged[] = [];
  #next = 0;
  #count = 0;
  /** The newest requests' bodies, request `id` at `id % BODIES_KEPT`. */
  #bodies: ({ id: number; request: KeptBody; response: KeptBody } | undefined)[] = new Array(BODIES_KEPT);

  /** `knownKeys`: the API keys the simulator holds, masked wherever they appear. */
  constructor(knownKeys: () => Iterable<string> = () => [], capacity = 1000) {
    this.#capacity = capacity;
    this.#knownKeys = knownKeys;
  }

  last(query: Pick<RequestLogQuery, "limit"> & Partial<RequestLogQuery>): LoggedRequest[] {
    const path = query.path === undefined ? undefined : pathPattern(query.path);
    const status = query.status === undefined ? undefined : new RegExp(`^${query.status.replace(/x/g, "[0-9]")}$`);
    const found: LoggedRequest[] = [];
    for (let i = 1; i <= this.#entries.length && found.length < query.limit; i++) {
      const entry = this.#entries[(this.#next - i + this.#entries.length) % this.#entries.length]!;
      if (path && !path.test(entry.path)) continue;
      if (status && !status.test(String(entry.status))) continue;
      if (query.method && entry.method !== query.method) continue;
      found.push(shownEntry(entry));
    }
    return found;
  }

  /** One request with its bodies, masked and cut at the bound; undefined once it left the log. */
  detail(id: number): LoggedRequestDetail | undefined {
    const entry = this.#entries.find((candidate) => candidate.id === id);
    if (!entry) return undefined;
    const kept = this.#bodies[id % BODIES_KEPT];
    const bodies = kept?.id === id ? kept : undefined;
    return {
      ...shownEntry(entry),
      request: bodies ? this.#shown(bodies.request) : null,
      response: bodies ? this.#shown(bodies.response) : null,
      bodiesKept: bodies !== undefined,
    };
  }

  /**
   * Records a request once its answer is final (the error exit calls it last, errors answered), unless it is a read of
   * this log itself or the dashboard's own (its files, its calls). Answers the id it gave the request, if it kept it.
   */
  record(ctx: Context, durationMs: number): number | undefined {
    if (UNLOGGED.test(ctx.path) || ctx.get(DASHBOARD_HEADER) !== "" || dashboardImage(ctx)) return undefined;
    // The key as the query or the ALTURA_API_KEY header sent it (the original takes both).
    const sentKey = (ctx.querystring !== "" && ctx.query.apiKey) || ctx.get(API_KEY_HEADER) || undefined;
    const apiKey = typeof sentKey === "string" ? masked(sentKey) : undefined;
    const id = ++this.#count;
    const answered = ctx.respond !== false;
    const violations = (ctx.state as { violations?: string[] }).violations;
    const entry: Logged = {
      id,
      at: Date.now(),
      method: ctx.method,
      path: ctx.path,
      query: ctx.querystring === "" ? "" : maskSecrets(ctx.querystring, this.#knownKeys()),
      status: answered ? ctx.status : 0,
      durationMs: Math.round(durationMs * 10) / 10,
      ...(apiKey ? { apiKey } : {}),
      ...(violations?.length ? { violations: violations.map((line) => maskSecrets(line, this.#knownKeys())) } : {}),
    };
    if (this.#entries.length < this.#capacity) this.#entries.push(entry);
    else this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#capacity;
    const raw = (ctx.request as { rawBody?: unknown }).rawBody;
    this.#bodies[id % BODIES_KEPT] = {
      id,
      request: typeof raw === "string" && raw !== "" ? { contentType: ctx.get("content-type"), content: raw } : null,
      response:
        answered && ctx.body != null ? { contentType: ctx.response.get("content-type"), content: ctx.body } : null,
    };
    return id;
  }

  #shown(body: KeptBody): LoggedBody | null {
    if (!body) return null;
    const { contentType, content } = body;
    const text =
      typeof content === "string"
        ? content
        : content instanceof Uint8Array
          ? JSON_TYPE.test(contentType)
            ? Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString("utf8")
            : `(${content.byteLength} bytes of ${contentType || "binary data"})`
          : typeof (content as { pipe?: unknown }).pipe === "function"
            ? "(a stream)"
            : JSON.stringify(content);
    const shown = maskSecrets(text, this.#knownKeys());
    return {
      contentType,
      text: shown.slice(0, BODY_BOUND),
      length: shown.length,
      truncated: shown.length > BODY_BOUND,
    };
  }
}

/** A picture the dashboard's page loads (an `<img>` sends no header of ours, but names the page it is on). */
function dashboardImage(ctx: Context): boolean {
  const referer = ctx.get("referer");
  if (!ctx.path.startsWith("/images/") || !URL.canParse(referer)) return false;
  const page = new URL(referer);
  return page.host === ctx.host && (page.pathname === "/" || page.pathname.startsWith("/dashboard/"));
}

// What the request log must never show in full: API keys and tokens, wherever a request or an
// answer carries them (a query, a JSON or form body, a control call naming keys as `owner`).

/** A secret as the log shows it: its first 4 characters (of a longer one), enough to tell keys apart. */
export function masked(secret: string, encode: (shown: string) => string = (shown) => shown): string {
  return secret.length > 8 ? `${encode([...secret].slice(0, 4).join(""))}…` : "…";
}

// A field or parameter whose name ends so holds a secret: apiKey, walletKey, adminToken, secret, password.
const SECRET_NAME = "[A-Za-z0-9_-]*(?:key|token|secret|password)";
const IN_JSON = new RegExp(`("${SECRET_NAME}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, "gi");
const IN_FORM = new RegExp(`(^|&)(${SECRET_NAME}=)([^&]*)`, "gi");

/**
 * The text with every secret in it masked: by the name of its field or parameter, and every known API key wherever it
 * stands.
 */
export function maskSecrets(text: string, knownKeys: Iterable<string>): string {
  let out = text
    .replace(IN_JSON, (_, open: string, value: string, close: string) => `${open}${maskedJson(value)}${close}`)
    .replace(
      IN_FORM,
      (_, start: string, name: string, value: string) => `${start}${name}${masked(decode(value), encodeURIComponent)}`,
    );
  for (const key of knownKeys) if (key.length > 0 && out.includes(key)) out = out.split(key).join(masked(key));
  return out;
}

/** A JSON string's content masked, still valid inside its quotes. */
function maskedJson(value: string): string {
  try {
    return JSON.stringify(masked(JSON.parse(`"${value}"`) as string)).slice(1, -1);
  } catch {
    return masked(value);
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}
