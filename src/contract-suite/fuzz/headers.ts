import fc from "fast-check";

/** A request's headers, in order, a name possibly more than once (as sent on the wire). */
export type HeaderList = [string, string][];

// What a careless or hostile client puts in its headers besides content-type and accept: a header
// over the server's limit, many headers, the same header twice (agreeing or not), values in Latin-1
// or in no coding a server expects, an Expect the server does not meet, a foreign Origin, no Host.
// A `host` with an empty value means "send no Host header" (as curl's -H 'Host:').

const pair = (name: string, value: string): HeaderList => [[name, value]];

const HUGE = fc.integer({ min: 17_000, max: 24_000 }).map((size) => pair("x-padding", "a".repeat(size)));
const MANY = fc
  .integer({ min: 50, max: 150 })
  .map((count) => Array.from({ length: count }, (_, i): [string, string] => [`x-h-${i}`, String(i)]));
const twice = (name: string, one: string, other: string) => [...pair(name, one), ...pair(name, other)];
const DUPLICATED = fc.constantFrom<HeaderList>(
  twice("accept", "application/json", "text/html"),
  twice("x-request-id", "1", "2"),
  twice("user-agent", "fuzz/1", "fuzz/2"),
  twice("authorization", "Bearer a", "Bearer b"),
);
const ODD_CODINGS = fc.constantFrom<HeaderList>(
  pair("accept-charset", "utf-16"),
  pair("accept-encoding", "gzip;q=0, identity;q=0"),
  pair("accept", "*/*;q=0"),
  pair("accept", ""),
  pair("accept-language", "\u00e9\u00e8\u00ea"),
  pair("x-latin1", "caf\u00e9 \u00ff\u00fe"),
  pair("user-agent", "\u00a0\t\u00a0"),
  pair("if-none-match", "*"),
  pair("range", "bytes=0-10"),
);
const ODD_INTENT = fc.constantFrom<HeaderList>(
  pair("expect", "foo"),
  pair("expect", "100-continue"),
  pair("origin", "https://evil.example"),
  pair("origin", "null"),
  pair("host", ""),
);

/** Extra headers: mostly none; otherwise one kind of oddity. */
export const oddHeaders: fc.Arbitrary<HeaderList> = fc.oneof(
  { withCrossShrink: true },
  { weight: 24, arbitrary: fc.constant<HeaderList>([]) },
  { weight: 1, arbitrary: HUGE },
  { weight: 1, arbitrary: MANY },
  { weight: 2, arbitrary: DUPLICATED },
  { weight: 2, arbitrary: ODD_CODINGS },
  { weight: 2, arbitrary: ODD_INTENT },
);

/** The first value of a header (names are case-insensitive). */
export function headerOf(headers: HeaderList, name: string): string | undefined {
  return headers.find(([given]) => given.toLowerCase() === name)?.[1];
}
