// Reads a V8 .cpuprofile (node --cpu-prof) and answers its hottest frames:
// self time (where the CPU was) and total time (what it was doing it for).
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Frame {
  frame: string;
  selfPct: number;
  totalPct: number;
}

function label(node: ProfileNode, root: string): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, "")
    .replace(root, "")
    .replace(/^.*node_modules\/((@[^/]+\/)?[^/]+)\//, "$1/");
  return `${functionName || "(anonymous)"}${file ? ` ${file}:${lineNumber + 1}` : ""}`;
}

/** The hottest frames of a profile; `idle` and the program root are left out of the percentages' base. */
export function hotFrames(
  path: string,
  root: string,
  top = 25,
): { samples: number; busyPct: number; self: Frame[]; total: Frame[]; byArea: Record<string, number> } {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const leaf = byId.get(id)!;
    const name = leaf.callFrame.functionName;
    if (name === "(idle)" || name === "(program)") continue;
    busy += 1;
    const leafLabel = label(leaf, root);
    self.set(leafLabel, (self.get(leafLabel) ?? 0) + 1);
    const area = areaOf(leaf);
    byArea.set(area, (byArea.get(area) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(byId.get(at)!, root);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + 1);
    }
  }
  const rank = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([frame]) => ({
        frame,
        selfPct: round((100 * (self.get(frame) ?? 0)) / busy),
        totalPct: round((100 * (total.get(frame) ?? 0)) / busy),
      }));
  return {
    samples: profile.samples.length,
    busyPct: round((100 * busy) / profile.samples.length),
    self: rank(self),
    total: rank(total).filter((f) => f.totalPct < 99.5),
    byArea: Object.fromEntries(
      [...byArea.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round((100 * v) / busy)]),
    ),
  };
}

/** Which package (or part of the project) a frame belongs to. */
function areaOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native/builtin)";
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  const project = /\/(src|bench)\/(.+)$/.exec(url);
  return project ? `${project[1]}/${project[2]!.split("/")[0]}` : url;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
