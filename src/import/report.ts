import { escrowsOf } from "./escrows.ts";
import type { LiveAnswer } from "./polite-fetch.ts";

/**
 * The fields a replay cannot make equal to the live answer, and why. Anything else that differs is a defect of the
 * import (exit 1).
 */
export const UNREPRODUCIBLE: Readonly<Record<string, string>> = {
  transactionHash: "the replay signs transactions of its own, so their hashes differ",
  id: "a market event's id embeds its transaction's hash (and a transfer's a log index the live block shared with others)",
  currency: "the stablecoin is the simulator's own contract (the native currency, the zero address, is equal)",
  uri: "the collection's uri is the simulator's metadata route",
  website: "a collection's website on the simulator is made absolute with its own URL",
};

/**
 * What a replay holds more of than live, for a reason of its own, by `<collection address>/<token id>` (tokenKey): the
 * token ids it fills, and the items whose live history starts after their mint, which it mints first.
 */
export interface AddedTokens {
  filled: string[];
  mints: string[];
}

export const tokenKey = (address: string, tokenId: number) => `${address.toLowerCase()}/${tokenId}`;

/**
 * Differences of whole answers the replay cannot avoid, each counted under its name (not a field's) and scoped to the
 * answers it concerns: a filled token's history, a history given its mint (its length and count one more, nothing
 * else), an error answer's wording (the status equal), a field the live metadata does not give.
 */
export const LISTED_ANSWERS = {
  "filled token": {
    why:
      "a token id without live history (live answered 404) is an item of the replay's own: the contract gives token " +
      "ids in order, so the live ids after it keep theirs only if it exists",
  },
  "mint added": {
    why:
      "the live history starts after the item's mint; the contract lists, moves or burns only a token that exists, so " +
      "the replay mints it first: one event more (the oldest)",
  },
  "marketplace escrow": {
    why:
      "a token moved into or out of the escrow of another of the chain's live marketplaces: the world has one a chain, " +
      "placed at the escrow most of its histories' transfers name (the import names the others)",
  },
  "error wording": { why: "an error answer with the same status carries the simulator's own message" },
  "metadata default": {
    why: "a field the live metadata does not give: the simulator's metadata names every field (its default)",
  },
} as const;

type Listed = keyof typeof LISTED_ANSWERS;

/** One URL read: the live answer against the local one after the replay. */
export interface ReportEntry {
  url: string;
  localUrl: string;
  equal: boolean;
  /** Each differing field by path, with why where it is a listed one (`listed`: one of LISTED_ANSWERS). */
  differences: { path: string; live: unknown; local: unknown; why?: string; listed?: Listed }[];
}

export interface FidelityReport {
  base: string;
  local: string;
  answers: number;
  equal: number;
  /** How many fields differ, by field name, and whether each is one a replay cannot make equal. */
  fields: Record<string, { count: number; why?: string }>;
  /** True when only listed fields differ: the command exits 0. */
  faithful: boolean;
  entries: ReportEntry[];
}

/** Rewrites a live URL to the local simulator's, by the live base and the addresses and uris the replay gave. */
export type LocalUrl = (liveUrl: string) => string;

export async function fidelityReport(
  reads: LiveAnswer[],
  base: string,
  local: string,
  localUrl: LocalUrl,
  added: AddedTokens = { filled: [], mints: [] },
): Promise<FidelityReport> {
  const entries: ReportEntry[] = [];
  const filled = new Set(added.filled);
  const minted = new Set(added.mints);
  const answers: { live: LiveAnswer; url: string; status: number; body: unknown }[] = [];
  for (const live of reads) {
    const url = localUrl(live.url);
    const response = await fetch(url);
    answers.push({ live, url, status: response.status, body: parse(await response.text()) });
  }
  const escrows = {
    live: new Set(escrowsOf(answers.map(({ live }) => eventsOf(parse(live.text)))).keys()),
    local: new Set(escrowsOf(answers.map(({ body }) => eventsOf(body))).keys()),
  };
  for (const { live, url, status, body } of answers) {
    const differences: ReportEntry["differences"] = [];
    if (status !== live.status) differences.push({ path: "(status)", live: live.status, local: status });
    diff(parse(live.text), body, "", differences);
    const token = historyToken(live.url, base);
    const answer = {
      filled: token !== undefined && filled.has(token),
      minted: token !== undefined && minted.has(token),
      error: live.status >= 400 && status === live.status,
      metadata: !live.url.startsWith(`${base}/api/`),
      escrows,
    };
    for (const difference of differences) {
      const listed = listedAs(difference, answer);
      const why = listed ? LISTED_ANSWERS[listed].why : UNREPRODUCIBLE[fieldOf(difference.path)];
      if (listed) difference.listed = listed;
      if (why) difference.why = why;
    }
    entries.push({ url: live.url, localUrl: url, equal: differences.length === 0, differences });
  }
  const fields: FidelityReport["fields"] = {};
  for (const { differences } of entries)
    for (const { path, why, listed } of differences) {
      const field = listed ?? fieldOf(path);
      fields[field] ??= { count: 0, ...(why ? { why } : {}) };
      fields[field].count++;
    }
  return {
    base,
    local,
    answers: entries.length,
    equal: entries.filter((entry) => entry.equal).length,
    fields,
    faithful: entries.every((entry) => entry.differences.every((difference) => difference.why)),
    entries,
  };
}

/** The report as lines for a terminal: totals, then each differing field with its count and why. */
export function reportLines(report: FidelityReport): string[] {
  const lines = [`${report.answers} answers compared, ${report.equal} equal`];
  for (const [field, { count, why }] of Object.entries(report.fields).sort((a, b) => b[1].count - a[1].count))
    lines.push(`  ${field}: differs ${count} times${why ? ` (${why})` : " (not expected: a defect of the import)"}`);
  return lines;
}

/** The token an item history's URL reads (tokenKey), if it is one. */
function historyToken(url: string, base: string): string | undefined {
  const match = /^\/api\/v2\/item\/events\/([^/?]+)\/(\d+)$/.exec(new URL(url).pathname);
  return url.startsWith(`${base}/`) && match ? tokenKey(match[1]!, Number(match[2])) : undefined;
}

/** Which listed difference of a whole answer this one is, if any. */
function listedAs(
  { path, live, local }: ReportEntry["differences"][number],
  answer: {
    filled: boolean;
    minted: boolean;
    error: boolean;
    metadata: boolean;
    escrows: { live: Set<unknown>; local: Set<unknown> };
  },
): Listed | undefined {
  if (answer.filled) return "filled token";
  const field = fieldOf(path);
  if ((field === "from" || field === "to") && answer.escrows.live.has(live) && answer.escrows.local.has(local))
    return "marketplace escrow";
  const oneMore = typeof live === "number" && local === live + 1;
  if (answer.minted && oneMore && (path === "events.length" || path === "count")) return "mint added";
  // A field only the local answer has: its wording, or its metadata's default.
  if (live !== undefined) return undefined;
  if (answer.error) return "error wording";
  if (answer.metadata) return "metadata default";
  return undefined;
}

/** An item history's events, none of any other answer. */
function eventsOf(body: unknown): Record<string, unknown>[] {
  const events = (body as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? events : [];
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The field a path ends in, array indices left out: `events[3].from` → `from`. */
function fieldOf(path: string): string {
  return (
    path
      .replace(/\[\d+\]/g, "")
      .split(".")
      .at(-1) || path
  );
}

function diff(live: unknown, local: unknown, path: string, out: ReportEntry["differences"]): void {
  if (Array.isArray(live) && Array.isArray(local)) {
    if (live.length !== local.length) out.push({ path: `${path}.length`, live: live.length, local: local.length });
    for (let i = 0; i < Math.min(live.length, local.length); i++) diff(live[i], local[i], `${path}[${i}]`, out);
    return;
  }
  if (isObject(live) && isObject(local)) {
    for (const key of new Set([...Object.keys(live), ...Object.keys(local)]))
      diff(live[key], local[key], path ? `${path}.${key}` : key, out);
    return;
  }
  if (!Object.is(live, local)) out.push({ path: path || "(body)", live, local });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
