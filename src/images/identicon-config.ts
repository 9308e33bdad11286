import type { JdenticonConfig } from "jdenticon";

/**
 * How the picture of `seed` is drawn: shapes of one hue (from the seed) on a dark tile of the same
 * hue. Plain code, no Node API: the simulator (PNG, SVG) and the MSW handlers in a browser (SVG) draw alike.
 */
export function identiconConfig(seed: string): JdenticonConfig {
  const hue = fnv1a(seed) % 360;
  return {
    hues: [hue],
    lightness: { color: [0.45, 0.75], grayscale: [0.35, 0.8] },
    saturation: { color: 0.6, grayscale: 0.1 },
    backColor: hslToHex(hue, 0.3, 0.16),
    padding: 0.12,
  };
}

/** FNV-1a over the seed's UTF-16 code units: a stable number from any text. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
