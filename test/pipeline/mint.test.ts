import { expect, it } from "vitest";
import { FailedKeys } from "../../src/pipeline/mint.ts";

// The mint's 429 over HTTP is tested in test/http/error-exit.test.ts; here the window itself.

it("the failed-key window counts per address, expires, and stays bounded", () => {
  const keys = new FailedKeys({ limit: 3, windowMs: 1000, maxClients: 2 });
  for (let i = 0; i < 3; i += 1) keys.record("a", 0);
  expect(keys.retryAfter("a", 10)).toBe(1);
  expect(keys.retryAfter("b", 10)).toBe(0);
  expect(keys.retryAfter("a", 1000)).toBe(0);
  keys.record("b", 2000);
  keys.record("c", 2000);
  keys.record("d", 2000);
  for (let i = 0; i < 3; i += 1) keys.record("d", 2001);
  expect(keys.retryAfter("d", 2002)).toBe(1);
});
