// The dashboard: a page over the simulator's own API (/api/v2) and control API (/_sim).
// Three views by the URL's hash (#/, #/collection/<address>, #/item/<address>/<tokenId>) and a
// control panel. No framework and no build step: it is served as it is written. It follows the
// chain by polling each chain's head (/_sim/time) and draws the view again when a block came.
import { drawCharts } from "./charts.js";
import { $, api, el, post, say } from "./lib.js";
import { refreshRequests, wireRequests } from "./requests.js";
import { collectionsView, collectionView, itemView } from "./views.js";

const POLL_MS = 2000;

// Renders overlap when the hash changes while a view is loading: only the latest may show.
let latestRender = 0;
/** The chain heads the view on the page was drawn at; a new block makes it stale. */
let drawnAt = "";
let heads = "";

async function render() {
  const mine = ++latestRender;
  await refreshControl();
  const at = heads;
  const [path, search = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(search);
  const parts = (path || "/").split("/").filter(Boolean);
  const view = $("#view");
  let content;
  try {
    content =
      parts[0] === "collection" ? await collectionView(parts[1], parts[2])
      : parts[0] === "item" ? await itemView(parts[1], parts[2], params)
      : await collectionsView(params);
  } catch (error) {
    content = [el("p", {}, String(error.message))];
  }
  if (mine !== latestRender) return;
  view.replaceChildren(...content);
  drawCharts(view);
  drawnAt = at;
  view.dataset.drawnAt = at;
}

// ---------- control panel ----------

const snapshots = [];

async function refreshControl() {
  try {
    const { chains } = await api("/_sim/time");
    heads = chains.map((c) => `${c.chainId}:${c.blockNumber}`).join(",");
    $("#clock").textContent = chains.map((c) => `chain ${c.chainId}: ${c.time.replace("T", " ").replace(".000Z", " UTC")}`).join(" · ");
    const { faults } = await api("/_sim/faults");
    $("#faults").replaceChildren(...faults.map((f) => el("li", {}, `${f.match.path}: ${describe(f.effect)} (applied ${f.applied}) `, el("button", { onclick: () => act(() => api(`/_sim/faults/${f.id}`, { method: "DELETE" }), "fault removed") }, "remove"))));
    await refreshRequests();
    $("#snapshots").replaceChildren(...snapshots.map((id) => el("li", {}, `snapshot ${id} `, el("button", { onclick: () => act(() => post(`/_sim/snapshots/${id}/revert`), `reverted to snapshot ${id}`) }, "revert"))));
    $("#control-off").hidden = true;
  } catch (error) {
    $("#control-off").textContent = controlProblem(error);
    $("#control-off").hidden = false;
  }
}

// Off (404) and token-only (401, which a page cannot send) are how the simulator was started; anything else passes (a chain away: 503).
const controlProblem = (error) =>
  error.status === 404 ? "The control API is off (not on loopback and no admin token)."
  : error.status === 401 ? "The control API needs the admin token, which this page cannot send."
  : `The control API did not answer: ${error.message}`;

const describe = (effect) =>
  effect.status ? `status ${effect.status}` : effect.rateLimit ? `${effect.rateLimit.requests} per ${effect.rateLimit.perSeconds} s` : effect.latencyMs ? `${effect.latencyMs} ms` : "drop";

async function act(action, done) {
  try {
    await action();
    say(done);
  } catch (error) {
    say(error.message);
  }
  await render();
}

function wireControl() {
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.onclick = () => act(() => post("/_sim/time/advance", { seconds: Number(button.dataset.advance) }), `time advanced by ${button.textContent}`);
  }
  $("#snapshot").onclick = () => act(async () => snapshots.push((await post("/_sim/snapshots")).id), "snapshot taken");
  $("#reset").onclick = () => act(async () => {
    await post("/_sim/reset");
    snapshots.length = 0;
  }, "back to the world as loaded");
  $("#fault-form").onsubmit = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const kind = form.get("kind");
    const effect = kind === "latency" ? { latencyMs: 2000 } : kind === "drop" ? { dropConnection: true } : kind === "429" ? { rateLimit: { requests: 5, perSeconds: 60 } } : { status: Number(kind) };
    act(() => post("/_sim/faults", { match: { path: form.get("path") }, effect }), "fault added");
  };
  wireRequests();
}

/** Every few seconds: the chain heads (a block mined anywhere, by the API, the control API or JSON-RPC, redraws the view) and the request log. */
async function poll() {
  if (!document.hidden) {
    await refreshControl();
    if (heads !== drawnAt) await render();
  }
  setTimeout(poll, POLL_MS);
}

window.addEventListener("hashchange", render);
wireControl();
render().then(() => setTimeout(poll, POLL_MS));
