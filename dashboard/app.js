// The dashboard: a page over the simulator's own API (/api/v2) and control API (/_sim).
// Three views by the URL's hash (#/, #/collection/<address>, #/item/<address>/<tokenId>) and a
// control panel. No framework and no build step: it is served as it is written. The view follows
// /_sim/events and is drawn again when an event concerns what it shows; the control panel (the
// clock, fault rules, the request log) is read again every few seconds.
import { drawCharts } from "./charts.js";
import { $, api, el, post, say } from "./lib.js";
import { follow } from "./live.js";
import { refreshRequests, wireRequests } from "./requests.js";
import { collectionsView, collectionView, itemView } from "./views.js";

const POLL_MS = 2000;

// Renders overlap when the hash changes while a view is loading: only the latest may show.
let latestRender = 0;

async function render() {
  const mine = ++latestRender;
  await refreshControl();
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
}

// ---------- control panel ----------

const snapshots = [];

async function refreshControl() {
  try {
    const { chains } = await api("/_sim/time");
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
  effect.status ? `status ${effect.status}` : effect.rateLimit ? `${effect.rateLimit.requests} per ${effect.rateLimit.perSeconds} s` : effect.latencyMs ? `${effect.latencyMs} ms` : effect.body ? `body: ${Object.keys(effect.body).join(", ")}` : "drop";

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

/** Every few seconds: the control panel (the clock, fault rules, the request log); the view follows the events instead. */
async function poll() {
  if (!document.hidden) await refreshControl();
  setTimeout(poll, POLL_MS);
}

/** Whether an event changes what the view shows: the list (collections, holders, volumes), one collection, one item. */
function concernsView(type, data) {
  const [path] = location.hash.replace(/^#/, "").split("?");
  const [view, address, tokenId] = (path || "/").split("/").filter(Boolean);
  const collection = data.itemCollection ?? data.collection ?? data.address;
  if (type === "gap" || !view) return true;
  if (view === "collection") return collection === address?.toLowerCase();
  return view === "item" && collection === address?.toLowerCase() && String(data.tokenId) === tokenId;
}

let redraw;
function heard(type, data) {
  if (!concernsView(type, data)) return;
  // A burst of events (a batch, a sale's transfer and swap) is drawn once; a filter being typed into is not redrawn under the cursor.
  clearTimeout(redraw);
  redraw = setTimeout(() => (document.activeElement?.closest?.("#view input") ? undefined : render()), 150);
}

window.addEventListener("hashchange", render);
wireControl();
render().then(() => setTimeout(poll, POLL_MS));
follow(heard);
