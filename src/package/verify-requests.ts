// Asserting on the request log, as WireMock's verify does:
//
//   await sim.verify({ method: "POST", path: "/api/v2/item/new", query: { apiKey: "demo-studio-key" }, count: 1 });
//
// passes with the requests that matched, or throws RequestVerificationError listing the closest the log holds.
import { editDistance } from "../schemas/nearest-name.ts";
import { pathPattern } from "../core/path-pattern.ts";
import type { LoggedRequest } from "../schemas/control.ts";
import { RequestVerificationError } from "./errors.ts";

/** What the log must hold. */
export interface RequestExpectation {
  /** GET, POST, … (any case); default any. */
  method?: string;
  /** The path, or a pattern as fault rules take it (`*` one segment, `**` the rest): `/api/v2/item/events/**`. */
  path: string;
  /** Each of these query parameters with this value (others may be there too); an API key as given, unmasked. */
  query?: Record<string, string | number | boolean>;
  /** The status answered (`404`), or a class (`"4xx"`). */
  status?: number | string;
  /** How many: exactly this many, or at least / at most; default at least 1. */
  count?: number | { atLeast?: number; atMost?: number };
}

/** Requests a failure lists as the closest. */
const CLOSEST_SHOWN = 3;

/** Checks `expected` against the log (newest first) and answers the requests that match it. */
export function verifyRequests(log: LoggedRequest[], expected: RequestExpectation): LoggedRequest[] {
  const method = expected.method?.toUpperCase();
  const path = pathPattern(expected.path);
  const query = Object.entries(expected.query ?? {}).map(([name, value]) => [name, String(value)] as const);
  const status =
    expected.status === undefined ? undefined : new RegExp(`^${String(expected.status).replace(/x/g, "[0-9]")}$`);
  const differences = (request: LoggedRequest): string[] => {
    const given = new URLSearchParams(request.query);
    return [
      ...(method && request.method !== method ? [`method ${request.method}`] : []),
      ...(path.test(request.path) ? [] : [`path ${request.path}`]),
      ...query.flatMap(([name, value]) => {
        const logged = given.get(name);
        if (logged === null) return [`no query ${name}`];
        // A value the log masks (an API key: its first 4 characters and `…`) matches the value it starts.
        const masked = logged.endsWith("…") && value.startsWith(logged.slice(0, -1));
        return logged === value || masked ? [] : [`query ${name}=${logged}`];
      }),
      ...(status && !status.test(String(request.status)) ? [`status ${request.status}`] : []),
    ];
  };
  const matched = log.filter((request) => differences(request).length === 0);
  const { atLeast, atMost } =
    typeof expected.count === "number"
      ? { atLeast: expected.count, atMost: expected.count }
      : { atLeast: expected.count?.atLeast ?? 1, atMost: expected.count?.atMost ?? Infinity };
  if (matched.length >= atLeast && matched.length <= atMost) return matched;

  const search = query.length > 0 ? `?${query.map(([name, value]) => `${name}=${value}`).join("&")}` : "";
  const answered = expected.status === undefined ? "" : ` answered ${expected.status}`;
  const wanted = `${method ?? "(any method)"} ${expected.path}${search}${answered}`;
  const howMany =
    atLeast === atMost ? `${atLeast}` : atMost === Infinity ? `at least ${atLeast}` : `${atLeast}–${atMost}`;
  const one = atLeast === 1 && (atMost === 1 || atMost === Infinity);
  const scored = log
    .filter((request) => !matched.includes(request))
    // How far a request is from the one expected: the edit distance of its path, a wrong method counting 5.
    .map((request) => ({
      request,
      off: differences(request),
      distance:
        editDistance(request.path, expected.path.replace(/\*+/g, "")) + (method && request.method !== method ? 5 : 0),
    }))
    .sort((a, b) => a.off.length - b.off.length || a.distance - b.distance)
    .slice(0, CLOSEST_SHOWN);
  const lines = [
    `expected ${howMany} request${one ? "" : "s"} ${wanted}, found ${matched.length} ` +
      `among the last ${log.length} the log holds.`,
    ...(matched.length > atMost
      ? ["Those that matched:", ...matched.slice(0, CLOSEST_SHOWN * 2).map((request) => `  ${requestLine(request)}`)]
      : []),
    ...(scored.length > 0
      ? [
          "The closest:",
          ...scored.map(({ request, off }) => `  ${requestLine(request)}   (differs: ${off.join(", ")})`),
        ]
      : log.length === 0
        ? ["The log is empty: it keeps what the API and the control API answered (not reads of the log itself)."]
        : []),
  ];
  throw new RequestVerificationError(
    lines.join("\n"),
    matched,
    scored.map(({ request }) => request),
  );
}

function requestLine({ id, method, path, query, status }: LoggedRequest): string {
  return `#${id} ${method} ${path}${query ? `?${query}` : ""} → ${status === 0 ? "dropped" : status}`;
}
