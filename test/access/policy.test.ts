import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accessPolicy, type AccessRequest } from "../../src/access/policy.ts";
import { START_ERRORS } from "../../src/core/errors.ts";
import { bearerMatches } from "../../src/access/token.ts";
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
/** The refusal's status and first line, or "ok". */
const decided = (options: Partial<SimulatorOptions>, fields: Partial<AccessRequest>) => {
  const refusal = policy(options).refusal(request(fields));
  return refusal ? `${refusal.status} ${refusal.code}: ${refusal.errors[0]}` : "ok";
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
  it("are open to every origin and every Host", () => {
    for (const host of ["evil.example", "localhost:3000"])
      for (const origin of [undefined, "https://evil.example"])
        expect(decided({}, { host, ...(origin ? { origin } : {}) })).toBe("ok");
  });
});

describe("writes to the API (a mint)", () => {
  it.each([
    ["a script (no Origin)", {}, "ok"],
    ["a dev server on another localhost port", { origin: "http://localhost:5173" }, "ok"],
    ["127.0.0.1 under its own address", { origin: "http://127.0.0.1:8080", host: "127.0.0.1:3000" }, "ok"],
    ["a LAN address as Host (no DNS name to rebind)", { host: "192.168.1.20:3000" }, "ok"],
    ["an IPv6 loopback Host", { host: "[::1]:3000" }, "ok"],
    ["a page on another site", { origin: "https://evil.example" }, "403 FORBIDDEN: Origin 'https://evil.example'"],
    ["a lookalike localhost origin", { origin: "http://localhost.evil.example:3000" }, "403 FORBIDDEN: Origin"],
    ["a rebinding Host", { host: "evil.example:3000" }, "403 FORBIDDEN: Host 'evil.example' is not allowed"],
  ])("%s", (_what, fields, expected) => {
    expect(decided({}, { ...mint, ...fields })).toMatch(new RegExp(`^${expected.replace(/[()]/g, "\\$&")}`));
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
    expect(decided(options, { ...mint, origin: "https://other.example" })).toMatch(/^403 /);
  });
});

describe("the control API", () => {
  it("without a token: only under a loopback name, an IP address or an allowed host, reads too", () => {
    for (const method of ["GET", "POST"]) {
      const on = { ...control, method };
      for (const host of ["localhost:3000", "127.0.0.1", "192.168.1.20:3000", "sim.lan"])
        expect(decided({ rpcAllowedHosts: ["sim.lan"] }, { ...on, host })).toBe("ok");
      expect(decided({}, { ...on, host: "evil.example" })).toBe(
        "403 FORBIDDEN: Host 'evil.example' is not allowed; add it with --allowed-hosts (or set --admin-token)",
      );
    }
  });

  it("with the token: any Host, the token always", () => {
    const options = { adminToken: "s3cret" };
    expect(decided(options, { ...control, host: "sim.example", authorization: "Bearer s3cret" })).toBe("ok");
    expect(decided(options, { ...control, host: "localhost" })).toBe(
      "401 UNAUTHORIZED: send Authorization: Bearer <--admin-token>",
    );
    expect(decided(options, { ...control, authorization: "Bearer wrong" })).toMatch(/^401 /);
  });

  it("is off off loopback without a token (404), whatever the request; on with one", () => {
    expect(decided({ host: "0.0.0.0" }, { ...control, method: "GET" })).toMatch(
      /^404 NOT_FOUND: the control API is off/,
    );
    expect(policy({ host: "0.0.0.0" }).controlOn).toBe(false);
    expect(policy({ host: "0.0.0.0", adminToken: "t" }).controlOn).toBe(true);
  });

  it("never from a foreign browser origin, even with the token", () => {
    const options = { adminToken: "s3cret" };
    expect(decided(options, { ...control, origin: "https://evil.example", authorization: "Bearer s3cret" })).toMatch(
      /^403 FORBIDDEN: Origin 'https:\/\/evil\.example' is not allowed; add it with --cors/,
    );
  });

  it("takes a body only as JSON; a POST without a body needs no content-type", () => {
    expect(decided({}, { ...control, hasBody: false })).toBe("ok");
    expect(decided({}, { ...control, hasBody: true, contentType: "application/json; charset=utf-8" })).toBe("ok");
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", undefined])
      expect(decided({}, { ...control, hasBody: true, ...(contentType ? { contentType } : {}) })).toMatch(
        /^415 UNSUPPORTED_MEDIA_TYPE: content-type/,
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
      "403 FORBIDDEN: Origin 'https://evil.example' is not allowed; add it with --rpc-cors",
    ],
    [
      "a text/plain body (a CORS simple request)",
      { contentType: "text/plain" },
      "415 UNSUPPORTED_MEDIA_TYPE: content-type 'text/plain' is not supported: send JSON-RPC as content-type application/json",
    ],
    [
      "a foreign Host (DNS rebinding)",
      { host: "evil.example:8545" },
      "403 FORBIDDEN: Host 'evil.example' is not allowed; add it with --allowed-hosts",
    ],
  ])("%s", (_what, fields, expected) => {
    expect(decided({}, { ...rpc, ...fields })).toBe(expected);
  });

  it("off loopback: the token on every call, then any Host", () => {
    const options = { rpcHost: "0.0.0.0", adminToken: "s3cret" };
    expect(decided(options, { ...rpc, host: "192.168.1.20:8545" })).toMatch(/^401 UNAUTHORIZED: /);
    for (const host of ["192.168.1.20:8545", "sim.lan"])
      expect(decided(options, { ...rpc, host, authorization: "Bearer s3cret" })).toBe("ok");
  });

  it("off loopback without a token, the policy cannot be made", () => {
    expect(() => policy({ rpcHost: "0.0.0.0" })).toThrow(
      expect.objectContaining({ descriptor: START_ERRORS.RPC_UNGUARDED }),
    );
    expect(() => policy({ rpcHost: "0.0.0.0", serveRpc: false })).not.toThrow();
  });

  it("widen the loopback origins with --rpc-cors, for CORS answers too", () => {
    const widened = policy({ rpcCors: ["https://app.example"] });
    for (const origin of ["http://localhost:5173", "https://app.example"])
      expect(widened.allowedOrigin("rpc", origin)).toBe(origin);
    expect(widened.allowedOrigin("rpc", "https://other.example")).toBeUndefined();
    expect(policy({ rpcCors: ["*"] }).allowedOrigin("rpc", "https://any.example")).toBe("https://any.example");
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
        else expect(answer).toMatch(new RegExp(`^403 FORBIDDEN: Host '${host.replaceAll(".", "\\.")}'`));
      }),
    );
  });
});

describe("the admin token", () => {
  it("matches only `Bearer <token>`, the scheme in any case, the token exactly (compared in constant time, on hashes)", () => {
    for (const header of ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Bearer  s3cret"])
      expect(bearerMatches(header, "s3cret"), header).toBe(true);
    for (const header of [
      "Bearer s3creT",
      "Bearer s3cret ",
      "Basic s3cret",
      "Bearers3cret",
      "s3cret",
      "Bearer ",
      "",
      undefined,
    ])
      expect(bearerMatches(header, "s3cret"), String(header)).toBe(false);
    expect(bearerMatches("Bearer undefined", undefined)).toBe(false);
    expect(bearerMatches("Bearer ", "")).toBe(false);
  });
});
