import { describe, expect, it } from "vitest";
import {
  hostnameOf,
  isIpLiteral,
  isLoopbackHost,
  isWildcardHost,
  LOOPBACK_ORIGINS,
  originAllowed,
  withLoopbackOrigins,
} from "../../src/access/hosts.ts";

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
