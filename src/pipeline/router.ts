import { pathToRegexp } from "path-to-regexp";
import { apiError, ERRORS, methodNotAllowed } from "../core/errors.ts";
import type { Operation } from "../schemas/operations.ts";

/** The methods the server's router takes at all (@koa/router's): any other is refused (405) on every path. */
const KNOWN_METHODS = new Set(["HEAD", "OPTIONS", "GET", "PUT", "PATCH", "POST", "DELETE"]);

/** One operation's path as the router matches it, and the methods it takes there (HEAD wherever GET). */
export interface Route<Op extends Operation = Operation> {
  operation: Op;
  /** The whole path: any case, an optional trailing slash (as @koa/router compiles it, with path-to-regexp). */
  pattern: RegExp;
  params: string[];
  methods: string[];
}

/** A request routed: its operation and path parameters (percent-decoded where they decode). */
export interface Routed<Op extends Operation = Operation> {
  operation: Op;
  params: Record<string, string>;
}

/** An OPTIONS request on a path the table serves: the methods it takes there. */
export interface Allowed {
  allow: string[];
}

/**
 * Method and path → operation, as the server routes them. A path an operation serves asked with a method it does not
 * take is 405 (OPTIONS: the methods it takes); any other path under `space` (the API's) is 404; undefined: a path that
 * is none of the table's.
 */
export class Router<Op extends Operation = Operation> {
  readonly routes: readonly Route<Op>[];
  readonly #space: string;

  constructor(operations: readonly Op[], space: string) {
    this.#space = space;
    this.routes = operations.map((operation) => {
      const { regexp, keys } = pathToRegexp(operation.path, { sensitive: false, trailing: true });
      const method = operation.method.toUpperCase();
      return {
        operation,
        pattern: regexp,
        params: keys.map((key) => key.name),
        methods: method === "GET" ? ["HEAD", method] : [method],
      };
    });
  }

  route(method: string, path: string): Routed<Op> | Allowed | undefined {
    const matching = this.routes.filter((route) => route.pattern.test(path));
    if (matching.length === 0) {
      if (!path.startsWith(this.#space)) return undefined;
      if (!KNOWN_METHODS.has(method)) throw methodNotAllowed([]);
      throw apiError(ERRORS.NOT_FOUND, { what: `Route ${method} ${path}` });
    }
    const route = matching.find((candidate) => candidate.methods.includes(method));
    if (route) return { operation: route.operation, params: paramsOf(route, path) };
    const allow = [...new Set(matching.flatMap((candidate) => candidate.methods))];
    if (method === "OPTIONS") return { allow };
    throw methodNotAllowed(allow);
  }
}

function paramsOf(route: Route, path: string): Record<string, string> {
  const captures = route.pattern.exec(path)!.slice(1);
  const params: Record<string, string> = {};
  route.params.forEach((name, i) => {
    if (captures[i]) params[name] = decodeParam(captures[i]);
  });
  return params;
}

/** A path parameter as the router decodes it: left as it is when it is not valid percent-encoding. */
function decodeParam(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
