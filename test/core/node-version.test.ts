import { expect, it } from "vitest";
import { NODE_MAJOR_NEEDED, nodeTooOld } from "../../src/core/node-version.ts";

it("lets Node.js 22 and later through, and names an older one and the one needed", () => {
  expect(NODE_MAJOR_NEEDED).toBe(22);
  expect(nodeTooOld("22.0.0")).toBeUndefined();
  expect(nodeTooOld("24.3.1")).toBeUndefined();
  expect(nodeTooOld(process.versions.node)).toBeUndefined();
  const old = nodeTooOld("20.19.2");
  expect(old).toContain("Node.js 20.19.2");
  expect(old).toContain("needs Node.js 22 or later");
  expect(nodeTooOld("21.99.0")).toContain("21.99.0");
});
