import { vi } from "vitest";

// Waiting for what happens in its own time (a block from another writer, a webhook's retry, a
// process's output). Every bound here guards a hang: generous, so a slow machine passes and a
// hang fails; none is a measurement (speed is measured in bench/).

/** How long a wait may last before it is taken for a hang. */
export const HANG_MS = 30_000;

/** Retries `check` every 50 ms until it returns without throwing, and answers what it returned; past `timeoutMs`, fails with its last error. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = HANG_MS): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}

/** Waits until `condition` holds (a check that throws counts as not yet); past `timeoutMs`, fails naming `what`. */
export async function until(what: string, condition: () => unknown, timeoutMs = HANG_MS): Promise<void> {
  await eventually(async () => {
    if (!(await condition())) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
  }, timeoutMs);
}

/** Resolves as `promise` does, or fails naming `what` once `timeoutMs` have passed. */
export function within<T>(promise: Promise<T>, what: string, timeoutMs = HANG_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
