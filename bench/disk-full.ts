// `node bench/disk-full.ts [--seconds 40] [--clients 8] [--size 1m]` (as root: it mounts a tmpfs): --state on a
// small filesystem under a mint load of the default world until well past full, as a long-running user
// would meet it. Tallies every answer by status (mints and reads), then gives the space back (the tmpfs
// made larger) and times until a mint is taken again, kills the simulator (-9), restarts it on the same
// directory and looks up every mint that was answered 200: each must be in its item's history exactly once.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { stopAll } from "./lib/processes.ts";
import { startSimulator } from "./lib/sim.ts";
import { getJson, learnWorld, mintRequest, SIMULATE, type WorldSpec } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "40" },
    clients: { type: "string", default: "8" },
    size: { type: "string", default: "1m" },
  },
});

const mount = mkdtempSync(join(tmpdir(), "nft-sim-bench-full-"));
execFileSync("mount", ["-t", "tmpfs", "-o", `size=${values.size}`, "tmpfs", mount]);
const stateDir = join(mount, "state");
const world: WorldSpec = { name: "default world on a full disk", scale: 1, args: [...SIMULATE, "--state", stateDir] };
const tally = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

async function main() {
  const sim = await startSimulator(world);
  const facts = await learnWorld(sim.base, sim.child);
  const mint = async (name: string) => {
    try {
      const { url, ...init } = mintRequest(sim.base, facts.mint, { name, initialSupply: 1 });
      const response = await fetch(url, init);
      return { status: String(response.status), body: (await response.json()) as any };
    } catch {
      return { status: "no answer", body: undefined };
    }
  };
  const mints = new Map<string, number>();
  const reads = new Map<string, number>();
  const acknowledged = new Map<string, { txHash: string; tokenId: number }>();
  const until = Date.now() + Number(values.seconds) * 1000;
  let sent = 0;
  const client = async () => {
    while (Date.now() < until) {
      const name = `Full Disk ${++sent}`;
      const { status, body } = await mint(name);
      tally(mints, status);
      if (status === "200") acknowledged.set(name, { txHash: body.txHash, tokenId: body.tokenIds[0] });
    }
  };
  const reader = async () => {
    while (Date.now() < until) {
      const response = await fetch(`${sim.base}/api/v2/collection/${facts.mint.collection}`).catch(() => undefined);
      tally(reads, String(response?.status ?? "no answer"));
      await response?.arrayBuffer();
    }
  };
  await Promise.all([...Array.from({ length: Number(values.clients) }, client), reader()]);
  const full = await getJson(`${sim.base}/_sim/state`);
  console.log(
    `mints answered, by status, over ${values.seconds} s (${values.clients} clients): ${JSON.stringify(Object.fromEntries(mints))}`,
  );
  console.log(`reads answered, by status: ${JSON.stringify(Object.fromEntries(reads))}`);
  console.log(`GET /_sim/state then: ${JSON.stringify(full.journal)}`);

  execFileSync("mount", ["-o", "remount,size=64m", mount]);
  const back = performance.now();
  let taken = await mint("After The Space Came Back");
  while (taken.status !== "200" && performance.now() - back < 30_000) taken = await mint("After The Space Came Back");
  if (taken.status === "200")
    acknowledged.set("After The Space Came Back", { txHash: taken.body.txHash, tokenId: taken.body.tokenIds[0] });
  console.log(
    `space given back: a mint answered ${taken.status} after ${((performance.now() - back) / 1000).toFixed(1)} s, without a restart`,
  );

  sim.child.process.kill("SIGKILL");
  await new Promise((resolve) => sim.child.process.once("exit", resolve));
  const again = await startSimulator(world);
  let once = 0;
  const wrong: string[] = [];
  for (const [name, { txHash, tokenId }] of acknowledged) {
    const { events } = await getJson(
      `${again.base}/api/v2/item/events/${facts.mint.collection}/${tokenId}?perPage=100`,
    );
    const found = (events as { transactionHash: string }[]).filter((event) => event.transactionHash === txHash).length;
    if (found === 1) once += 1;
    else wrong.push(`${name}: ${found} times`);
  }
  console.log(
    `after kill -9 and a restart: ${once} of the ${acknowledged.size} mints answered 200 are in their item's history exactly once` +
      (wrong.length ? `; not: ${wrong.slice(0, 10).join(", ")}` : ""),
  );
  if (wrong.length > 0 || mints.has("500")) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    execFileSync("umount", ["-l", mount]);
  });
