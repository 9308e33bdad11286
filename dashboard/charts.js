// Charts, drawn by uPlot (served by the simulator from its own node_modules: no CDN). A view
// returns a placeholder; `drawCharts` draws every placeholder once the view is on the page, when
// its width is known.
import uPlot from "/dashboard/vendor/uPlot.esm.js";
import { el, usd } from "./lib.js";

const specs = new WeakMap();

/** A placeholder for a chart of `points` ([x in unix seconds, y]); `kind` "line" (points joined) or "bars". */
export function chart(testid, title, points, { kind = "line", label = "USD" } = {}) {
  const node = el("div", { className: "chart", dataset: { testid, points: String(points.length) } });
  specs.set(node, { title, points, kind, label });
  return points.length === 0 ? el("p", { className: "muted", dataset: { testid } }, `${title}: nothing yet.`) : node;
}

export function drawCharts(root) {
  for (const node of root.querySelectorAll(".chart")) {
    const spec = specs.get(node);
    if (!spec || node.dataset.drawn) continue;
    node.dataset.drawn = "1";
    const { title, points, kind, label } = spec;
    const bars = kind === "bars";
    const options = {
      title,
      width: Math.max(320, node.clientWidth),
      height: 220,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      // One day on each side of a lone point or bar, instead of uPlot's years.
      scales: { x: { time: true, range: (_u, min, max) => (max - min < 86_400 ? [min - 86_400, max + 86_400] : [min, max]) }, y: { range: (_u, min, max) => [0, Math.max(max * 1.1, 1)] } },
      axes: [{}, { values: (_u, ticks) => ticks.map((tick) => usd(tick)), size: 70 }],
      series: [
        {},
        {
          label,
          stroke: bars ? "#3b6fd8" : "#d8643b",
          fill: bars ? "rgba(59,111,216,0.55)" : undefined,
          width: bars ? 0 : 2,
          points: { show: !bars, size: 6 },
          paths: bars ? uPlot.paths.bars({ size: [0.7, 40] }) : undefined,
        },
      ],
    };
    const data = [points.map(([x]) => x), points.map(([, y]) => y)];
    new uPlot(options, data, node);
  }
}
