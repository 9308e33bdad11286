import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RELATIVE_TIME } from "../../src/schemas/scenario.ts";
import { formatOffset, offsetSeconds } from "../../src/scenario/time.ts";

describe("relative times", () => {
  it("reads now, each unit and their sums, back in time unless marked +", () => {
    expect(offsetSeconds("now")).toBe(0);
    expect(offsetSeconds("-90m")).toBe(-5_400);
    expect(offsetSeconds("-1w2d3h4m5s")).toBe(-(7 * 86_400 + 2 * 86_400 + 3 * 3_600 + 4 * 60 + 5));
    expect(formatOffset(-(2 * 86_400 + 6 * 3_600 + 30 * 60))).toBe("-2d6h30m");
    // A fragment's times run forward; a scenario file's times do not.
    expect(offsetSeconds("+3d")).toBe(3 * 86_400);
    expect(RELATIVE_TIME.test("+3d")).toBe(false);
  });

  it("refuses a sign without a count, a time without a sign, and units out of order", () => {
    for (const time of ["-", "+", "3d", "-3h2d", "-2x", "now-1d", ""])
      expect(() => offsetSeconds(time), time).toThrow(/is not a relative time/);
  });

  it("writes the shortest form: now, and whole days, hours, minutes and seconds, rounded to a second", () => {
    expect(formatOffset(0)).toBe("now");
    expect(formatOffset(-0.4)).toBe("now");
    expect(formatOffset(-86_400)).toBe("-1d");
    expect(formatOffset(-(7 * 86_400 + 1))).toBe("-7d1s");
    expect(formatOffset(-59.6)).toBe("-1m");
    expect(() => formatOffset(1)).toThrow(/in the future/);
  });

  it("reads back what it writes, for any offset in the past", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10 * 365 * 86_400, max: 0 }), (seconds) => {
        const written = formatOffset(seconds);
        expect(RELATIVE_TIME.test(written)).toBe(true);
        expect(offsetSeconds(written)).toBe(seconds);
      }),
    );
  });
});
