import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { expect } from "vitest";
import { needing } from "../needs.ts";
import { BANNER_END, printedBy } from "../processes.ts";

// util-linux's `script` runs the program on a pseudo-terminal, so its streams are TTYs as on a developer's terminal.
const SCRIPT = "/usr/bin/script";
const { it } = needing(
  existsSync(SCRIPT) ? undefined : `${SCRIPT} is missing`,
  "install util-linux (apt-get install util-linux), whose script gives the program a terminal",
);

it("on a terminal, npm run simulate's program draws a bar per chain, then the banner with the wall-clock wording", async () => {
  const command = `${process.execPath} src/cli/simulate.ts --fixture demo --port 0 --no-rpc --wall-clock`;
  const child = spawn(SCRIPT, ["-qfec", command, "/dev/null"], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, COLUMNS: "160" },
  });
  const closed = once(child, "close");
  const printed = printedBy(child);
  try {
    await printed.waitFor(BANNER_END);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await closed;
  }
  const output = printed.output();

  const bannerAt = output.indexOf("simulator ready in");
  expect(bannerAt, output).toBeGreaterThan(-1);
  const progress = output.slice(0, bannerAt);
  // A bar is redrawn in place (cursor movement), and each chain's bar ends full; no plain progress lines.
  expect(progress).toMatch(/\u001b\[/);
  for (const chainId of [56, 137])
    expect(progress).toMatch(new RegExp(`replaying chain ${chainId} \\S+ (\\d+)/\\1 entries`));
  expect(progress).not.toMatch(/\d+% \(\d+\/\d+ entries\)/);
  expect(output).toMatch(/clock {6}chain time follows the wall clock \(\S+ at start\)/);
}, 150_000);
