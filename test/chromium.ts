import { existsSync } from "node:fs";
import { needing } from "./needs.ts";

/** Debian's Chromium (`apt-get install chromium`; the env CHROMIUM names another binary); the browser tests never download one. */
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/** The browser tests: skipped on a developer's machine without Chromium, failed in CI without it. */
export const { describe: describeInChromium, it: itInChromium } = needing(
  existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing`,
  "install Debian's chromium (apt-get install chromium; .ci/run does)",
);
