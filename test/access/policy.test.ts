import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  accessPolicy,
  type AccessRequest,
  hostnameOf,
  isIpLiteral,
  isLoopbackHost,
  isWildcardHost,
  LOOPBACK_ORIGINS,
  loopbackPolicy,
  originAllowed,
  withLoopbackOrigins,
} from "../../src/access/policy.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { DEFAULT_OPTIONS, type SimulatorOptions } from "../../src/core/config.ts";

// The one access policy of every port (the API with its control API, the JSON-RPC ports), decided
// from the request alone: every rule the guards of each port had, as a table. The HTTP tests
// (test/http/access.test.ts, test/http/rpc-access.test.ts, test/control/access.test.ts) check that
// each port asks it.

const policy = (options: Partial<SimulatorOptions> = {}) => accessPolicy({ ...DEFAULT_OPTIONS, ...options });
const request = (fields: Partial<AccessRequest>): AccessRequest => ({
  surface: "api",
  method: "GET",
  path: "/api/v2/collection",
  host: "localhost:3000",
  hasBody: false,
  ...fields,
});
/** The refusal's status, code, message and first line, or "ok". */
const decided = (options: Partial<SimulatorOptions>, fields: Partial<AccessRequest>) => {
  const refusal = policy(options).refusal(request(fields));
  return refusal ? `${refusal.status} ${refusal.code} (${refusal.message}): ${refusal.errors[0]}` : "ok";
};

const mint = { method: "POST", path: "/api/v2/item/new", hasBody: true, contentType: "application/json" };
const control = { method: "POST", path: "/_sim/snapshots" };
const rpc = {
  surface: "rpc" as const,
  method: "POST",
  path: "/",
  host: "127.0.0.1:8545",
  contentType: "application/json",
};

describe("reads of the API", () => {
  it("are open to every origin and every Host, with HEAD and OPTIONS", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      for (const host of ["evil.example", "localhost:3000"])
        for (const origin of [undefined, "https://evil.example"])
          expect(decided({}, { method, host, ...(origin ? { origin } : {}) })).toBe("ok");
  });

  it("are no reads under a path that only starts like the control API's", () => {
    for (const path of ["/_simulate", "/api/v2/_sim/x"])
      expect(decided({}, { path, host: "evil.example" }), path).toBe("ok");
  });
});

const HOST_REFUSED =
  "403 FORBIDDEN (This Host may not change state): Host 'evil.example' is not allowed; add it with --allowed-hosts";
const ORIGIN_REFUSED = (origin: string) =>
  `403 FORBIDDEN (This origin may not change state): Origin '${origin}' is not allowed; add it with --cors`;

describe("writes to the API (a mint)", () => {
  it.each([
    ["a script (no Origin)", {}, "ok"],
    ["a dev server on another localhost port", { origin: "http://localhost:5173" }, "ok"],
    ["127.0.0.1 under its own address", { origin: "http://127.0.0.1:8080", host: "127.0.0.1:3000" }, "ok"],
    ["a LAN address as Host (no DNS name to rebind)", { host: "192.168.1.20:3000" }, "ok"],
    ["an IPv6 loopback Host", { host: "[::1]:3000" }, "ok"],
    ["an empty Origin (as some clients send)", { origin: "" }, "ok"],
    ["a page on another site", { origin: "https://evil.example" }, ORIGIN_REFUSED("https://evil.example")],
    [
      "a lookalike localhost origin",
      { origin: "http://localhost.evil.example:3000" },
      ORIGIN_REFUSED("http://localhost.evil.example:3000"),
    ],
    [
      "a localhost origin followed by a DNS name",
      { origin: "http://localhost:3000.evil.example" },
      ORIGIN_REFUSED("http://localhost:3000.evil.example"),
    ],
    ["a rebinding Host", { host: "evil.example:3000" }, HOST_REFUSED],
    [
      "a rebinding Host that starts with a loopback address",
      { host: "127.0.0.1.evil.example" },
      HOST_REFUSED.replace("evil.example'", "127.0.0.1.evil.example'"),
    ],
    [
      "a rebinding Host that starts with an IP address",
      { host: "192.168.1.20.evil.example:3000" },
      HOST_REFUSED.replace("evil.example'", "192.168.1.20.evil.example'"),
    ],
  ])("%s", (_what, fields, expected) => {
    expect(decided({}, { ...mint, ...fields })).toBe(expected);
  });

  it("are every method but GET, HEAD and OPTIONS", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "get"])
      expect(decided({}, { ...mint, method, host: "evil.example" }), method).toBe(HOST_REFUSED);
  });

  it("take any content-type (the mint reads a form too)", () => {
    expect(decided({}, { ...mint, contentType: "multipart/form-data; boundary=x" })).toBe("ok");
  });

  it("take the --allowed-hosts and the --public-url host, and widen the origins with --cors", () => {
    const options = {
      rpcAllowedHosts: ["sim.lan"],
      publicUrl: "https://staging.example.com",
      apiCors: ["https://app.example"],
    };
    for (const host of ["sim.lan:3000", "staging.example.com"]) expect(decided(options, { ...mint, host })).toBe("ok");
    for (const origin of ["https://app.example", "http://localhost:5173"])
      expect(decided(options, { ...mint, origin })).toBe("ok");
    expect(decided(options, { ...mint, origin: "https://other.example" })).toBe(
      ORIGIN_REFUSED("https://other.example"),
    );
    expect(
      decided({ publicUrl: "https://Staging.Example.com:8443/api" }, { ...mint, host: "staging.example.com:8443" }),
    ).toBe("ok");
  });
});

describe("the control API", () => {
  it("without a token: only under a loopback name, an IP address or an allowed host, reads too", () => {
    for (const method of ["GET", "POST"]) {
      const on = { ...control, method };
      for (const host of ["localhost:3000", "127.0.0.1", "192.168.1.20:3000", "sim.lan"])
        expect(decided({ rpcAllowedHosts: ["sim.lan"] }, { ...on, host })).toBe("ok");
      for (const path of ["/_sim", "/_sim/snapshots"])
        expect(decided({}, { ...on, path, host: "evil.example" })).toBe(
          "403 FORBIDDEN (This Host may not use the control API): Host 'evil.example' is not allowed; add it with " +
            "--allowed-hosts (or set --admin-token)",
        );
    }
  });

  it("with the token: any Host, the token always", () => {
    const options = { adminToken: "s3cret" };
    expect(decided(options, { ...control, host: "sim.example", authorization: "Bearer s3cret" })).toBe("ok");
    expect(decided(options, { ...control, host: "localhost" })).toBe(
      "401 UNAUTHORIZED (The control API needs the admin token): send Authorization: Bearer <--admin-token>",
    );
    expect(decided(options, { ...control, authorization: "Bearer wrong" })).toMatch(/^401 /);
    expect(decided(options, { ...control, method: "GET", path: "/_sim" })).toMatch(/^401 /);
  });

  it("is off off loopback without a token (404), whatever the request; on with one", () => {
    expect(decided({ host: "0.0.0.0" }, { ...control, method: "GET" })).toBe(
      "404 NOT_FOUND (Route GET /_sim/snapshots not found): the control API is off: the API listens on 0.0.0.0, not " +
        "loopback, and no --admin-token (or ADMIN_TOKEN) was given",
    );
    expect(policy({ host: "0.0.0.0" }).controlOn).toBe(false);
    expect(policy({ host: "0.0.0.0", adminToken: "t" }).controlOn).toBe(true);
  });

  it("never from a foreign browser origin, even with the token", () => {
    const options = { adminToken: "s3cret" };
    expect(decided(options, { ...control, origin: "https://evil.example", authorization: "Bearer s3cret" })).toBe(
      "403 FORBIDDEN (This origin may not use the control API): Origin 'https://evil.example' is not allowed; add it " +
        "with --cors",
    );
  });

  it("takes a body only as JSON; a POST without a body needs no content-type", () => {
    expect(decided({}, { ...control, hasBody: false })).toBe("ok");
    for (const contentType of [
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON ;charset=utf-8",
    ])
      expect(decided({}, { ...control, hasBody: true, contentType }), contentType).toBe("ok");
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      undefined,
      "",
      // A JSON type after another one, or a longer name that starts like it: neither is JSON.
      "text/plain; application/json",
      "application/jsonp",
      "application/json-seq",
    ])
      expect(decided({}, { ...control, hasBody: true, ...(contentType !== undefined ? { contentType } : {}) })).toBe(
        `415 UNSUPPORTED_MEDIA_TYPE (Send the body as application/json): content-type '${contentType || "(none)"}' is ` +
          "not supported: send the body as application/json",
      );
  });
});

describe("the JSON-RPC ports", () => {
  it.each([
    ["a wallet on loopback", {}, "ok"],
    ["a dApp on another localhost port", { origin: "http://localhost:5173" }, "ok"],
    [
      "a foreign Origin",
      { origin: "https://evil.example" },
      "403 FORBIDDEN (This origin may not use this JSON-RPC port): Origin 'https://evil.example' is not allowed; " +
        "add it with --rpc-cors",
    ],
    [
      "a text/plain body (a CORS simple request)",
      { contentType: "text/plain" },
      "415 UNSUPPORTED_MEDIA_TYPE (Send the body as application/json): content-type 'text/plain' is not supported: " +
        "send JSON-RPC as content-type application/json",
    ],
    [
      "a POST without a content-type (its body is read as JSON-RPC)",
      { contentType: undefined, hasBody: false },
      "415 UNSUPPORTED_MEDIA_TYPE (Send the body as application/json): content-type '(none)' is not supported: " +
        "send JSON-RPC as content-type application/json",
    ],
    ["a GET (no call: nothing to refuse but its Host and Origin)", { method: "GET", contentType: undefined }, "ok"],
    [
      "a foreign Host (DNS rebinding)",
      { host: "evil.example:8545" },
      "403 FORBIDDEN (This Host may not use this JSON-RPC port): Host 'evil.example' is not allowed; add it with " +
        "--allowed-hosts",
    ],
  ])("%s", (_what, fields, expected) => {
    expect(decided({}, { ...rpc, ...fields })).toBe(expected);
  });

  it("off loopback: the token on every call, then any Host", () => {
    const options = { rpcHost: "0.0.0.0", adminToken: "s3cret" };
    expect(decided(options, { ...rpc, host: "192.168.1.20:8545" })).toBe(
      "401 UNAUTHORIZED (This JSON-RPC port (not on loopback) needs the admin token): send Authorization: Bearer " +
        "<--admin-token>",
    );
    for (const host of ["192.168.1.20:8545", "sim.lan"])
      expect(decided(options, { ...rpc, host, authorization: "Bearer s3cret" })).toBe("ok");
  });

  it("have no control API: a path under /_sim is a call like any other", () => {
    expect(decided({}, { ...rpc, path: "/_sim/snapshots", host: "evil.example" })).toBe(
      "403 FORBIDDEN (This Host may not use this JSON-RPC port): Host 'evil.example' is not allowed; add it with " +
        "--allowed-hosts",
    );
  });

  it("off loopback without a token, the policy cannot be made", () => {
    expect(() => policy({ rpcHost: "0.0.0.0" })).toThrow(
      expect.objectContaining({
        descriptor: START_ERRORS.RPC_UNGUARDED,
        message:
          "the JSON-RPC ports would listen on 0.0.0.0, where anyone could send transactions as the developer " +
          "wallets: set --admin-token (or ADMIN_TOKEN)",
      }),
    );
    expect(() => policy({ rpcHost: "0.0.0.0", serveRpc: false })).not.toThrow();
  });

  it("widen the loopback origins with --rpc-cors, for CORS answers too", () => {
    const widened = policy({ rpcCors: ["https://app.example"] });
    for (const origin of ["http://localhost:5173", "https://app.example"])
      expect(widened.allowedOrigin("rpc", origin)).toBe(origin);
    expect(widened.allowedOrigin("rpc", "https://other.example")).toBeUndefined();
    expect(policy({ rpcCors: ["*"] }).allowedOrigin("rpc", "https://any.example")).toBe("https://any.example");
    expect(widened.allowedOrigin("rpc", undefined)).toBeUndefined();
    expect(widened.allowedOrigin("api", "https://app.example")).toBeUndefined();
  });

  it("on loopback take the --allowed-hosts, and the loopback names and IP addresses", () => {
    const options = { rpcAllowedHosts: ["sim.lan"] };
    for (const host of ["sim.lan:8545", "localhost:8545", "[::1]:8545", "10.0.0.2:8545"])
      expect(decided(options, { ...rpc, host }), host).toBe("ok");
  });
});

describe("any request", () => {
  it("under a DNS name that is not allowed: refused (403) unless it only reads the API", () => {
    const read = { method: "GET" };
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}\.(example|test|lan)$/);
    fc.assert(
      fc.property(name, fc.constantFrom(read, mint, control, rpc), (host, fields) => {
        const answer = decided({}, { ...fields, host });
        if (fields === read) expect(answer).toBe("ok");
        else
          expect(answer).toMatch(
            new RegExp(`^403 FORBIDDEN \\(This Host may not [^)]+\\): Host '${host.replaceAll(".", "\\.")}'`),
          );
      }),
    );
  });
});

describe("hosts", () => {
  // Each case names the mistake it guards against: an anchor dropped from a pattern lets a DNS name that
  // merely contains a loopback address or an IP address (which an attacker's DNS can serve) pass as one.

  describe("isLoopbackHost", () => {
    it.each(["localhost", "127.0.0.1", "::1", "[::1]", "127.10.200.3", "127.255.255.255"])("%s is loopback", (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    });

    it.each([
      ["a DNS name that starts with a loopback address", "127.0.0.1.evil.example"],
      ["a DNS name that ends with one", "evil.127.0.0.1"],
      ["three parts", "127.0.0"],
      ["letters for a part", "127.a.0.1"],
      ["another network", "128.0.0.1"],
      ["a wildcard address", "0.0.0.0"],
      ["nothing", ""],
      ["a LAN address", "192.168.1.20"],
    ])("%s is not (%s)", (_what, host) => {
      expect(isLoopbackHost(host)).toBe(false);
    });
  });

  describe("isWildcardHost", () => {
    it("is 0.0.0.0 and ::, nothing else", () => {
      expect(isWildcardHost("0.0.0.0")).toBe(true);
      expect(isWildcardHost("::")).toBe(true);
      for (const host of ["127.0.0.1", "::1", "localhost", "", "0.0.0.0.evil.example"])
        expect(isWildcardHost(host), host).toBe(false);
    });
  });

  describe("isIpLiteral", () => {
    it.each(["192.168.1.20", "10.0.0.1", "255.255.255.255", "::1", "fe80::1", "::ffff:127.0.0.1", "FE80::AB"])(
      "%s is an IP address",
      (host) => {
        expect(isIpLiteral(host)).toBe(true);
      },
    );

    it.each([
      ["a DNS name that starts with an IPv4 address", "1.2.3.4.evil.example"],
      ["a DNS name that ends with one", "evil.1.2.3.4"],
      ["a part of four digits", "1234.1.1.1"],
      ["three parts", "1.2.3"],
      ["a DNS name", "evil.example"],
      ["a DNS name of hex letters (no colon)", "cafe"],
      ["a DNS name of hex letters and dots", "dead.beef"],
      ["an IPv6 address followed by a DNS name", "fe80::1.evil.example"],
      ["a DNS name followed by an IPv6 address", "evil::1"],
      ["an IPv6 zone", "fe80::1%eth0"],
      ["nothing", ""],
    ])("%s is not (%s)", (_what, host) => {
      expect(isIpLiteral(host)).toBe(false);
    });
  });

  describe("originAllowed", () => {
    it("takes `*` for any origin and a listed origin exactly", () => {
      expect(originAllowed("https://any.example", ["*"])).toBe(true);
      expect(originAllowed("https://app.example", ["https://app.example"])).toBe(true);
      expect(originAllowed("https://app.example:443", ["https://app.example"])).toBe(false);
      expect(originAllowed("https://app.example", [])).toBe(false);
    });

    it("takes any port of `http://name:*`, and only a port", () => {
      const allowed = ["http://localhost:*"];
      for (const origin of ["http://localhost:5173", "http://localhost:1"])
        expect(originAllowed(origin, allowed), origin).toBe(true);
      for (const origin of [
        "http://localhost:5173.evil.example",
        "http://localhost:a1234",
        "http://localhost:",
        "http://localhost",
        "http://localhost.evil.example:5173",
        "https://localhost:5173",
        // Digits where the port would be, after another name of the same length.
        "http://ab.example5173",
      ])
        expect(originAllowed(origin, allowed), origin).toBe(false);
    });

    it("reads `:*` only at the end of a pattern", () => {
      expect(originAllowed("http://localhost:3001", ["http://localhost:3000"])).toBe(false);
      expect(originAllowed("http://localhost:5173", ["http://localhost:"])).toBe(false);
      expect(originAllowed("http://localhost:5173", ["http://localhost"])).toBe(false);
    });
  });

  describe("hostnameOf", () => {
    it.each([
      ["localhost:3000", "localhost"],
      ["LOCALHOST:3000", "localhost"],
      ["Sim.Example", "sim.example"],
      ["127.0.0.1:8545", "127.0.0.1"],
      ["[::1]:3000", "::1"],
      ["[::1]", "::1"],
      ["[fe80::1]:1", "fe80::1"],
      // Not a host and port: left whole, so it matches no allowed name.
      ["evil[::1]", "evil[::1]"],
      ["[::1]:3000evil", "[::1]:3000evil"],
      ["[::1]:", "[::1]:"],
      ["localhost:3000x", "localhost:3000x"],
      ["[]:3000", "[]"],
    ])("%s is %s", (header, host) => {
      expect(hostnameOf(header)).toBe(host);
    });
  });

  describe("withLoopbackOrigins", () => {
    it("is the loopback origins of any port, widened by those given, each once", () => {
      expect(LOOPBACK_ORIGINS).toEqual(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]);
      expect(withLoopbackOrigins([])).toEqual(LOOPBACK_ORIGINS);
      expect(withLoopbackOrigins(["https://app.example", "http://localhost:*"])).toEqual([
        ...LOOPBACK_ORIGINS,
        "https://app.example",
      ]);
    });
  });
});

describe("the loopback policy of a dev tool (nft-sim proxy)", () => {
  const proxy = loopbackPolicy(["https://app.example"]);
  const refused = (fields: Partial<AccessRequest>) => proxy.refusal(request(fields))?.message ?? "ok";

  it("lets a write through from loopback, a script or an allowed origin, and no Host but loopback and addresses", () => {
    expect(refused(mint)).toBe("ok");
    expect(refused({ ...mint, origin: "http://localhost:5173" })).toBe("ok");
    expect(refused({ ...mint, origin: "https://app.example" })).toBe("ok");
    expect(refused({ ...mint, host: "10.0.0.2:3000" })).toBe("ok");
    expect(refused({ ...mint, host: "evil.example" })).toBe("This Host may not change state");
    expect(refused({ ...mint, origin: "https://evil.example" })).toBe("This origin may not change state");
  });

  it("allows its --cors origins on the API only; its control API needs a loopback Host; it has no token", () => {
    expect(proxy.allowedOrigin("api", "https://app.example")).toBe("https://app.example");
    expect(proxy.allowedOrigin("rpc", "https://app.example")).toBeUndefined();
    expect(proxy.allowedOrigin("rpc", "http://127.0.0.1:5173")).toBe("http://127.0.0.1:5173");
    expect(proxy.controlOn).toBe(true);
    expect(refused({ ...control, host: "evil.example" })).toBe("This Host may not use the control API");
    expect(refused({ ...control, contentType: "application/json", hasBody: true })).toBe("ok");
    expect(refused({ ...rpc, host: "evil.example" })).toBe("This Host may not use this JSON-RPC port");
    expect(refused(rpc)).toBe("ok");
  });
});
