// Preloaded into the simulator by bench/profile.ts (`node --import ./bench/lib/profile-hook.ts`):
// the first SIGUSR2 starts V8's CPU profiler, the second writes the profile to
// $BENCH_PROFILE_OUT and stops it, so a profile holds the load window only, not start-up.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const session = new Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.enable", () =>
      session.post("Profiler.setSamplingInterval", { interval: 250 }, () => session.post("Profiler.start")),
    );
    return;
  }
  running = false;
  session.post("Profiler.stop", (error, result) => {
    writeFileSync(
      process.env.BENCH_PROFILE_OUT!,
      error ? JSON.stringify({ error: String(error) }) : JSON.stringify(result.profile),
    );
  });
});
