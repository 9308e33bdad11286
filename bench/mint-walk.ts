// `node bench/mint-walk.ts [--path /api/v2/item/new] [--tree <project tree>]`: the walk of one request through the source, file by file, as a
// newcomer following it reads it. The default world is served from the sources (src/cli/simulate.ts, not the bundle)
// under the inspector; after a first mint (so nothing is answered from start-up's leftovers), V8's call counts tell
// which functions of src/ a second mint runs, and a breakpoint at each tells the order they are first entered in, on a
// third. Prints each file in that order (a file once, where it is first entered), its folder, and counts the files and
// the returns: entering a folder of src/ (its top level: chain/actions/ is chain/) already left before.
// `--path /api/v2/collection?...` walks a read instead; `--tree` walks another tree (this one by default).
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, stopAll } from "./lib/processes.ts";
import { startSimulator } from "./lib/sim.ts";
import { BENCH_CACHE_DIR, learnWorld, mintRequest } from "./lib/worlds.ts";

const { values } = parseArgs({
  options: { path: { type: "string", default: "/api/v2/item/new" }, tree: { type: "string", default: ROOT } },
});
const tree = `${resolve(values.tree)}/`;

const world = {
  name: "default world, from the sources",
  scale: 1,
  args: ["src/cli/simulate.ts", "--no-rpc", "--public-url", "http://127.0.0.1:3000", "--cache", BENCH_CACHE_DIR],
  cwd: tree,
};
const sim = await startSimulator(world, ["--inspect=127.0.0.1:0"]);
const facts = await learnWorld(sim.base, sim.child);
const request = async () => {
  const mint = mintRequest(sim.base, facts.mint);
  const answer = values.path.startsWith("/api/v2/item/new")
    ? await fetch(mint.url, mint)
    : await fetch(sim.base + values.path);
  if (!answer.ok) throw new Error(`${values.path}: ${answer.status} ${await answer.text()}`);
  await answer.arrayBuffer();
};

/** The Chrome DevTools Protocol over the inspector's WebSocket. */
const wsUrl = /Debugger listening on (ws:\/\/\S+)/.exec(sim.child.output)![1]!;
const socket = new WebSocket(wsUrl);
await new Promise((resolve) => socket.addEventListener("open", resolve, { once: true }));
let nextId = 1;
const waiting = new Map<number, (result: any) => void>();
const scripts = new Map<string, string>();
const entered: string[] = [];
const byBreakpoint = new Map<string, string>();
socket.addEventListener("message", ({ data }) => {
  const message = JSON.parse(String(data));
  if (message.id) return waiting.get(message.id)?.(message.result ?? message.error);
  if (message.method === "Debugger.scriptParsed") scripts.set(message.params.scriptId, message.params.url);
  if (message.method === "Debugger.paused") {
    for (const id of message.params.hitBreakpoints ?? []) entered.push(byBreakpoint.get(id)!);
    void send("Debugger.resume");
  }
});
function send(method: string, params: object = {}): Promise<any> {
  const id = nextId++;
  socket.send(JSON.stringify({ id, method, params }));
  return new Promise((resolve) => waiting.set(id, resolve));
}

const SRC = `file://${tree}src/`;
await request();
await send("Profiler.enable");
await send("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
await send("Profiler.takePreciseCoverage");
await request();
const { result: coverage } = await send("Profiler.takePreciseCoverage");
await send("Profiler.stopPreciseCoverage");

await send("Debugger.enable");
for (const script of coverage as { scriptId: string; url: string; functions: any[] }[]) {
  if (!script.url.startsWith(SRC)) continue;
  const source: string = (await send("Debugger.getScriptSource", { scriptId: script.scriptId })).scriptSource;
  for (const fn of script.functions) {
    const [whole] = fn.ranges;
    if (!whole || whole.count === 0 || (fn.functionName === "" && whole.startOffset === 0)) continue;
    const before = source.slice(0, whole.startOffset).split("\n");
    const location = { scriptId: script.scriptId, lineNumber: before.length - 1, columnNumber: before.at(-1)!.length };
    const set = await send("Debugger.setBreakpoint", { location });
    if (set.breakpointId) byBreakpoint.set(set.breakpointId, relative(tree, new URL(script.url).pathname));
  }
}
await request();
await send("Debugger.disable");
socket.close();

const files: string[] = [];
for (const file of entered) if (!files.includes(file)) files.push(file);
const folderOf = (file: string) => file.split("/").slice(0, 2).join("/");
let returns = 0;
const left = new Set<string>();
files.forEach((file, i) => {
  const folder = folderOf(file);
  const previous = i > 0 ? folderOf(files[i - 1]!) : undefined;
  const back = previous !== undefined && folder !== previous && left.has(folder);
  if (back) returns += 1;
  if (previous !== undefined && previous !== folder) left.add(previous);
  console.log(`${String(i + 1).padStart(3)} ${back ? "↩" : " "} ${file}`);
});
const folders = new Set(files.map(folderOf));
console.log(
  `${values.path}: ${files.length} files in ${folders.size} folders, ${returns} returns to a folder left before`,
);
await sim.child.stop();
await stopAll();
