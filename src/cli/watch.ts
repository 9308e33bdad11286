import { watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { loadScenarioFile } from "../scenario/load.ts";

// Editors write a file in bursts (truncate, write, rename): one reload once it has been quiet this long.
const SETTLE_MS = 250;

/**
 * Reloads the world each time its scenario `file` (told as `shown`) changes, one reload at a time: `trial` replays the
 * edited world beside the running one (no ports of its own) and throws if it does not load, then `swap` stops the
 * running world and starts the edited one on the same ports. A scenario with an error (its JSON path told) or one that
 * does not replay leaves the running world as it is.
 */
export function reloadOnChange(reload: { file: string; shown: string; trial(): Promise<void>; swap(): Promise<void> }) {
  const path = resolve(reload.file);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let again = false;
  const run = async () => {
    const started = performance.now();
    try {
      loadScenarioFile(path);
    } catch (error) {
      console.error(`--watch: ${reload.shown} has an error; the running world stays.\n${(error as Error).message}`);
      return;
    }
    console.log(`--watch: ${reload.shown} changed: replaying it beside the running world …`);
    try {
      await reload.trial();
    } catch (error) {
      console.error(`--watch: the edited world does not load; the running world stays.\n${(error as Error).message}`);
      return;
    }
    await reload.swap();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`--watch: reloaded ${reload.shown} in ${seconds} s: the edited world, reset, on the same ports`);
  };
  const changed = () => {
    if (again) return;
    again = true;
    running = running.then(() => ((again = false), run())).catch((error: unknown) => console.error(error));
  };
  const watcher = watch(dirname(path), (_event, name) => {
    if (name !== basename(path)) return;
    clearTimeout(timer);
    timer = setTimeout(changed, SETTLE_MS);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
