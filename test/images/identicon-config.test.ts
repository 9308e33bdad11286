import { expect, it } from "vitest";
import { identiconConfig } from "../../src/images/identicon-config.ts";

/** The hue of a #rrggbb colour, in whole degrees. */
function hueOf(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const spread = max - Math.min(r, g, b);
  const sixth = max === r ? ((g - b) / spread + 6) % 6 : max === g ? (b - r) / spread + 2 : (r - g) / spread + 4;
  return sixth * 60;
}

it("draws a seed in one hue of its own, on a dark tile of that hue, the same every time", () => {
  const config = identiconConfig("0xc0ffee-7");
  expect(identiconConfig("0xc0ffee-7")).toEqual(config);
  const [hue] = config.hues as [number];
  expect(Number.isInteger(hue) && hue >= 0 && hue < 360).toBe(true);
  const back = config.backColor as string;
  expect(back).toMatch(/^#[0-9a-f]{6}$/);
  const apart = Math.abs(hueOf(back) - hue);
  expect(Math.min(apart, 360 - apart)).toBeLessThan(3);
  // Dark: no channel above 0.16 + 0.3 × 0.16 of full light.
  for (const at of [1, 3, 5]) expect(parseInt(back.slice(at, at + 2), 16)).toBeLessThanOrEqual(Math.ceil(0.21 * 255));
});

it("gives seeds hues spread around the wheel", () => {
  const hues = new Set(Array.from({ length: 200 }, (_, i) => (identiconConfig(`item-${i}`).hues as number[])[0]));
  expect(hues.size).toBeGreaterThan(100);
  const sixths = new Set([...hues].map((hue) => Math.floor(hue / 60)));
  expect(sixths).toEqual(new Set([0, 1, 2, 3, 4, 5]));
});
