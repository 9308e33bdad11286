// Host names and browser origins, as the access policy reads them.

/** Browser origins on this machine, any port: what a local dev server of the developer's serves from. */
export const LOOPBACK_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** Whether a listening host is loopback only (a wildcard address is not). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/** An IP address written as such: a `Host` no DNS rebinding can produce. */
export function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || (host.includes(":") && /^[0-9a-f:.]+$/i.test(host));
}

/** `origin` matches one of `allowed`: exactly, `*` for any, or `http://name:*` for any port of that name. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some(
    (pattern) =>
      pattern === "*" ||
      pattern === origin ||
      (pattern.endsWith(":*") &&
        origin.startsWith(pattern.slice(0, -1)) &&
        /^\d+$/.test(origin.slice(pattern.length - 1))),
  );
}

/** The host name of a `Host` header, without its port and brackets, lower case. */
export function hostnameOf(header: string): string {
  const bracketed = header.match(/^\[([^\]]+)\](:\d+)?$/);
  if (bracketed) return bracketed[1]!;
  return header.replace(/:\d+$/, "").toLowerCase();
}

/** The loopback origins and those given (`--cors`, `--rpc-cors` widen the default, never narrow it). */
export function withLoopbackOrigins(given: readonly string[]): string[] {
  return [...new Set([...LOOPBACK_ORIGINS, ...given])];
}
