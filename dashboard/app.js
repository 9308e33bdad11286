// The dashboard: a page over the simulator's own API (/api/v2) and control API (/_sim).
// Three views by the URL's hash (#/, #/collection/<address>, #/item/<address>/<tokenId>) and a
// control panel. No framework and no build step: it is served as it is written.

const $ = (selector, root = document) => root.querySelector(selector);
const el = (tag, { dataset = {}, ...props } = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.dataset, dataset);
  node.append(...children.filter((child) => child !== undefined && child !== null));
  return node;
};
const link = (href, text) => el("a", { href }, text);
const usd = (value) => `$${Number(value).toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
const short = (address) => `${address.slice(0, 8)}…${address.slice(-4)}`;

async function api(path, init) {
  const response = await fetch(path, init);
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(`${response.status} ${body.error}: ${body.errors?.join("; ")}`), { status: response.status });
  return body;
}
const post = (path, body) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
const say = (text) => ($("#message").textContent = text);

// ---------- views ----------

const COLUMNS = [
  ["name", "Name"], ["chainId", "Chain"], ["genre", "Genre"], ["holders", "Holders", true],
  ["volume_1d", "Volume 1d", true], ["volume_all", "Volume all", true], ["mintDate", "Minted"],
];

async function collectionsView(params) {
  const query = new URLSearchParams(params);
  if (!query.has("perPage")) query.set("perPage", "10");
  const page = Number(query.get("page") ?? 1);
  const perPage = Number(query.get("perPage"));
  const { collections, count } = await api(`/api/v2/collection?${query}`);
  const go = (changes) => {
    const next = new URLSearchParams(query);
    for (const [name, value] of Object.entries(changes)) value === "" ? next.delete(name) : next.set(name, String(value));
    location.hash = `#/?${next}`;
  };
  const filter = (name, label) =>
    el("input", { name, placeholder: label, value: query.get(name) ?? "", onchange: (event) => go({ [name]: event.target.value, page: 1 }), ariaLabel: label });
  const header = COLUMNS.map(([field, label, numeric]) => {
    const active = (query.get("sortBy") ?? "mintDate") === field;
    const direction = active && query.get("sortDir") !== "asc" ? "asc" : "desc";
    const arrow = active ? (query.get("sortDir") === "asc" ? " ▲" : " ▼") : "";
    return el("th", { className: numeric ? "num" : "" }, el("button", { onclick: () => go({ sortBy: field, sortDir: direction, page: 1 }) }, label + arrow));
  });
  const rows = collections.map((c) =>
    el("tr", {},
      el("td", {}, link(`#/collection/${c.address}`, c.name)), el("td", {}, String(c.chainId)), el("td", {}, c.genre),
      el("td", { className: "num" }, String(c.holders)), el("td", { className: "num" }, usd(c.volume_1d)), el("td", { className: "num" }, usd(c.volume_all)),
      el("td", {}, c.mintDate.slice(0, 10))));
  const pages = Math.max(1, Math.ceil(count / perPage));
  return [
    el("h1", {}, `Collections (${count})`),
    el("div", { className: "filters" }, filter("chainId", "chain id"), filter("genre", "genre"), filter("name", "exact name")),
    el("table", { dataset: { testid: "collections" } }, el("thead", {}, el("tr", {}, ...header)), el("tbody", {}, ...rows)),
    el("div", { className: "pager" },
      el("button", { disabled: page <= 1, onclick: () => go({ page: page - 1 }) }, "← previous"),
      el("span", {}, `page ${page} of ${pages}`),
      el("button", { disabled: page >= pages, onclick: () => go({ page: page + 1 }) }, "next →")),
  ];
}

async function collectionView(address) {
  const { collection: c } = await api(`/api/v2/collection/${address}`);
  const { items } = await api(`/_sim/collections/${address}/items?chainId=${c.chainId}`).catch(() => ({ items: [] }));
  const rows = items.map((item) =>
    el("tr", {},
      el("td", {}, link(`#/item/${address}/${item.tokenId}`, `#${item.tokenId}`)), el("td", {}, item.name),
      el("td", { className: "num" }, item.supply), el("td", { className: "num" }, item.maxSupply),
      el("td", { className: "num" }, String(item.holders)), el("td", { className: "num" }, String(item.events))));
  return [
    el("p", {}, link("#/", "← collections")),
    el("h1", {}, c.name),
    el("dl", {},
      el("dt", {}, "Address"), el("dd", { className: "mono" }, c.address),
      el("dt", {}, "Chain"), el("dd", {}, String(c.chainId)),
      el("dt", {}, "Owner"), el("dd", { className: "mono" }, c.ownerAddress),
      el("dt", {}, "Holders"), el("dd", {}, String(c.holders)),
      el("dt", {}, "Volume 1d / 1w / 30d / all"), el("dd", {}, [c.volume_1d, c.volume_1w, c.volume_30d, c.volume_all].map(usd).join(" / ")),
      el("dt", {}, "Minted"), el("dd", {}, c.mintDate)),
    el("h2", {}, `Items (${items.length})`),
    el("table", { dataset: { testid: "items" } },
      el("thead", {}, el("tr", {}, ...["Token", "Name", "Supply", "Max", "Holders", "Events"].map((h, i) => el("th", { className: i > 1 ? "num" : "" }, h)))),
      el("tbody", {}, ...rows)),
  ];
}

async function itemView(address, tokenId, params) {
  const page = Number(params.get("page") ?? 1);
  const { events } = await api(`/api/v2/item/events/${address}/${tokenId}?perPage=25&page=${page}`);
  const rows = events.map((e) =>
    el("tr", {},
      el("td", {}, e.event), el("td", {}, new Date(e.timestamp * 1000).toISOString().replace("T", " ").slice(0, 19)),
      el("td", { className: "mono" }, e.from ? short(e.from) : ""), el("td", { className: "mono" }, e.to ? short(e.to) : ""),
      el("td", { className: "num" }, String(e.amount)), el("td", { className: "num" }, e.price === undefined ? "" : String(e.price)),
      el("td", { className: "mono" }, short(e.transactionHash))));
  const go = (next) => (location.hash = `#/item/${address}/${tokenId}?page=${next}`);
  return [
    el("p", {}, link(`#/collection/${address}`, "← collection")),
    el("h1", {}, `Item #${tokenId}`),
    el("p", { className: "mono" }, address),
    el("table", { dataset: { testid: "history" } },
      el("thead", {}, el("tr", {}, ...["Event", "When", "From", "To", "Amount", "Price", "Transaction"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)),
    el("div", { className: "pager" },
      el("button", { disabled: page <= 1, onclick: () => go(page - 1) }, "← newer"),
      el("span", {}, `page ${page}`),
      el("button", { disabled: events.length < 25, onclick: () => go(page + 1) }, "older →")),
  ];
}

// Renders overlap when the hash changes while a view is loading: only the latest may show.
let latestRender = 0;

async function render() {
  const mine = ++latestRender;
  const [path, search = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(search);
  const parts = (path || "/").split("/").filter(Boolean);
  const view = $("#view");
  let content;
  try {
    content =
      parts[0] === "collection" ? await collectionView(parts[1]) : parts[0] === "item" ? await itemView(parts[1], parts[2], params) : await collectionsView(params);
  } catch (error) {
    content = [el("p", {}, String(error.message))];
  }
  if (mine !== latestRender) return;
  view.replaceChildren(...content);
  refreshControl();
}

// ---------- control panel ----------

const snapshots = [];

async function refreshControl() {
  try {
    const { chains } = await api("/_sim/time");
    $("#clock").textContent = chains.map((c) => `chain ${c.chainId}: ${c.time.replace("T", " ").replace(".000Z", " UTC")}`).join(" · ");
    const { faults } = await api("/_sim/faults");
    $("#faults").replaceChildren(...faults.map((f) => el("li", {}, `${f.match.path}: ${describe(f.effect)} (applied ${f.applied}) `, el("button", { onclick: () => act(() => api(`/_sim/faults/${f.id}`, { method: "DELETE" }), "fault removed") }, "remove"))));
    const { requests } = await api("/_sim/requests?limit=12");
    $("#requests").replaceChildren(...requests.map((r) => el("li", { className: "mono" }, `${r.status} ${r.method} ${r.path} ${r.durationMs} ms`)));
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
}

window.addEventListener("hashchange", render);
wireControl();
render();
