import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { draw, picture } from "../../src/images/identicon.ts";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

it("draws the same bytes for the same seed, format and size, and other bytes for another of any", () => {
  const png = draw("sword-1", "png", 64);
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(draw("sword-1", "png", 64)).toEqual(png);
  expect(draw("sword-2", "png", 64)).not.toEqual(png);
  expect(draw("sword-1", "png", 128)).not.toEqual(png);
  const svg = draw("sword-1", "svg", 64).toString("utf8");
  expect(svg).toMatch(/^<svg [^>]*width="64" height="64"/);
});

it("tags a picture by its bytes, and gives the one it kept when asked again", () => {
  const first = picture("shield-9", "png", 96);
  expect(first.bytes).toEqual(draw("shield-9", "png", 96));
  expect(first.etag).toBe(`"${createHash("sha1").update(first.bytes).digest("base64url")}"`);
  expect(picture("shield-9", "png", 96)).toBe(first);
  expect(picture("shield-9", "svg", 96).etag).not.toBe(first.etag);
});
