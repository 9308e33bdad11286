import { Child, children, forkNode, freePort, sleep, startNode } from "./processes.ts";
import type { WorldSpec } from "./worlds.ts";

export interface Started {
  child: Child;
  base: string;
  startup: {
    firstResponseMs: number;
    listeningMs: number;
    /** When the banner is out: the chains hold the world (with a cached world, later than the first answer). */
    readyLineMs: number;
    /** Whether the first answer came from the world cache. */
    fromCache: boolean;
    peakRssAtReadyMB: number;
    /** Peak RSS once the chains hold the world (the banner). */
    peakRssAtChainsMB: number;
    /** When `probe` (a path) first answered 200, if one was given. */
    probeMs?: number;
  };
}

/**
 * Starts the simulator with a world in its own process and times it: from spawning
 * the process to its first successful answer to GET /api/v2/collection. The API
 * answers 503 until the world is in, so the first 200 is the whole world (from the world
 * cache, when this world was started before; the chains then replay it meanwhile).
 * "Listening" is the first answer of any status; "banner" when the chains hold the world.
 * Returns once both are there.
 */
export async function startSimulator(
  world: WorldSpec,
  nodeFlags: string[] = [],
  { probe, withinMs = 600_000 }: { probe?: string; withinMs?: number } = {},
): Promise<Started> {
  const port = await freePort();
  const child = startNode([...world.args, "--port", String(port)], nodeFlags, world.cwd);
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  let listeningMs = NaN;
  let readyLineMs = NaN;
  for (;;) {
    if (!child.running) throw new Error(`the simulator (${world.name}) exited:\n${child.output.slice(-3000)}`);
    if (performance.now() - child.startedAt > withinMs)
      throw new Error(`the simulator (${world.name}) did not start in ${withinMs / 60_000} minutes`);
    const response = await fetch(`${base}/api/v2/collection?perPage=1`).catch(() => undefined);
    if (response) {
      await response.arrayBuffer();
      if (Number.isNaN(listeningMs)) listeningMs = performance.now() - child.startedAt;
    }
    if (Number.isNaN(readyLineMs) && /ready in/.test(child.output)) readyLineMs = performance.now() - child.startedAt;
    if (response?.ok) {
      const firstResponseMs = performance.now() - child.startedAt;
      const peakRssAtReadyMB = child.memory()?.peakMB ?? NaN;
      let probeMs: number | undefined;
      while (probe && probeMs === undefined && child.running) {
        const answer = await fetch(`${base}${probe}`).catch(() => undefined);
        await answer?.arrayBuffer();
        if (answer?.ok) probeMs = performance.now() - child.startedAt;
        else await sleep(10);
      }
      await child.waitFor(/ready in/, withinMs);
      if (Number.isNaN(readyLineMs)) readyLineMs = performance.now() - child.startedAt;
      const fromCache = /Answering from the cached world/.test(child.output);
      return {
        child,
        base,
        startup: {
          firstResponseMs,
          listeningMs,
          readyLineMs,
          fromCache,
          peakRssAtReadyMB,
          peakRssAtChainsMB: child.memory()?.peakMB ?? NaN,
          ...(probeMs !== undefined ? { probeMs } : {}),
        },
      };
    }
    await sleep(10);
  }
}

export async function stop(child: Child): Promise<void> {
  await child.stop();
  children.delete(child);
}

/** A bench helper (baseline) in its own process, driven over IPC. */
export function helper(script: string, args: string[] = []) {
  const child = forkNode(script, args);
  children.add(child);
  const next = (type: string) =>
    new Promise<any>((resolve, reject) => {
      const onMessage = (message: any) => {
        if (message.type === "error") reject(new Error(message.message));
        else if (message.type === type) resolve(message);
        else return;
        child.process.off("message", onMessage);
        child.process.off("exit", onExit);
      };
      const onExit = () => reject(new Error(`${script} exited:\n${child.output.slice(-3000)}`));
      child.process.on("message", onMessage);
      child.process.once("exit", onExit);
    });
  return { child, next, send: (message: object) => child.process.send(message) };
}
