import { existsSync } from "node:fs";
import { describe, it } from "vitest";

/** Debian's Chromium (`apt-get install chromium`; the env CHROMIUM names another binary); the browser tests never download one. */
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/**
 * Where Chromium is missing, a browser test is skipped on a developer's machine; in CI (CI=true,
 * as .ci/run sets it) it runs and fails, so a missing browser never passes for green.
 */
const skip = !existsSync(CHROMIUM) && process.env.CI !== "true";
export const describeInChromium = skip ? describe.skip : describe;
export const itInChromium = skip ? it.skip : it;

/** Call first in a browser test: names the missing browser instead of failing somewhere inside Playwright. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing and CI=true: install Debian's chromium (apt-get install chromium; .ci/run does)`,
    );
}
