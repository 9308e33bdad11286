import { describe, expect, it } from "vitest";
import { pathPattern } from "../../src/core/path-pattern.ts";

describe("pathPattern", () => {
  it("matches a path given whole, and only it", () => {
    const pattern = pathPattern("/api/v2/collection");
    expect(pattern.test("/api/v2/collection")).toBe(true);
    expect(pattern.test("/api/v2/collection/0xabc")).toBe(false);
    expect(pattern.test("/x/api/v2/collection")).toBe(false);
  });

  it("lets * stand for one segment and ** for any rest", () => {
    const one = pathPattern("/api/v2/item/*");
    expect(one.test("/api/v2/item/new")).toBe(true);
    expect(one.test("/api/v2/item/")).toBe(true);
    expect(one.test("/api/v2/item/events/0xabc/1")).toBe(false);
    const rest = pathPattern("/api/v2/**");
    expect(rest.test("/api/v2/item/events/0xabc/1")).toBe(true);
    expect(rest.test("/_sim/api/v2/item")).toBe(false);
    expect(pathPattern("/api/*/item/*/**").test("/api/v2/item/events/0xabc/1")).toBe(true);
  });

  it("takes every other character as itself, not as a regular expression", () => {
    expect(pathPattern("/metadata/a.b").test("/metadata/aXb")).toBe(false);
    expect(pathPattern("/metadata/a.b").test("/metadata/a.b")).toBe(true);
    expect(pathPattern("/x+(y)?").test("/x+(y)?")).toBe(true);
    expect(pathPattern("/x+(y)?").test("/xx")).toBe(false);
    expect(pathPattern("/[a]|b").test("/[a]|b")).toBe(true);
    expect(pathPattern("/[a]|b").test("b")).toBe(false);
  });
});
