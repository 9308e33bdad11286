import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";

// util-linux's `script` runs the program on a pseudo-terminal, so its streams are TTYs as on a developer's terminal.
const SCRIPT = "/usr/bin/script";

it.skipIf(!existsSync(SCRIPT))(
  "on a terminal, npm run simulate's program draws a bar per chain, then the banner with the wall-clock wording",
  async () => {
    const command = `${process.execPath} src/cli/simulate.ts --fixture demo --port 0 --no-rpc --wall-clock`;
    const child = spawn(SCRIPT, ["-qfec", command, "/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env: { ...process.env, COLUMNS: "160" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    while (!output.includes("Ctrl-C stops") && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    process.kill(-child.pid!, "SIGTERM");
    await once(child, "exit");

    const bannerAt = output.indexOf("simulator ready in");
    expect(bannerAt, output).toBeGreaterThan(-1);
    const progress = output.slice(0, bannerAt);
    // A bar is redrawn in place (cursor movement), and each chain's bar ends full; no plain progress lines.
    expect(progress).toMatch(/\u001b\[/);
    for (const chainId of [56, 137])
      expect(progress).toMatch(new RegExp(`replaying chain ${chainId} \\S+ (\\d+)/\\1 entries`));
    expect(progress).not.toMatch(/\d+% \(\d+\/\d+ entries\)/);
    expect(output).toMatch(/clock {6}chain time follows the wall clock \(\S+ at start\)/);
  },
);
