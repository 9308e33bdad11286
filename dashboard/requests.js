// The request log in the control panel: the last requests, filtered by path, status and method,
// and one request's details (query, bodies, API keys masked) in a dialog.
import { $, api, el } from "./lib.js";

const filters = () => {
  const form = new FormData($("#request-filters"));
  const query = new URLSearchParams({ limit: "15" });
  for (const name of ["path", "status", "method"]) if (form.get(name)) query.set(name, String(form.get(name)));
  return query;
};

// Refreshes overlap (each filter change asks again): only the last one asked for is drawn, whatever order the answers
// come back in.
let lastAsked = 0;

export async function refreshRequests() {
  const asked = ++lastAsked;
  let requests;
  try {
    ({ requests } = await api(`/_sim/requests?${filters()}`));
    if (asked !== lastAsked) return;
    $("#request-problem").textContent = "";
  } catch (error) {
    if (asked === lastAsked) $("#request-problem").textContent = error.message;
    return;
  }
  $("#requests").replaceChildren(
    ...requests.map((r) =>
      el("li", {},
        el("button", { className: `request status-${String(r.status)[0]}xx`, onclick: () => showRequest(r.id), title: "details" },
          el("span", { className: "status" }, String(r.status)),
          ` ${r.method} ${r.path}${r.query ? `?${r.query}` : ""} `,
          el("span", { className: "muted" }, `${r.durationMs} ms`)))));
}

async function showRequest(id) {
  const r = await api(`/_sim/requests/${id}`);
  const body = (title, part) =>
    el("section", {},
      el("h3", {}, title, part ? ` (${part.contentType || "no content type"}${part.truncated ? `, first ${part.text.length} of ${part.length} characters` : ""})` : ""),
      el("pre", { dataset: { testid: `${title.toLowerCase()}-body` } }, part ? pretty(part.text) : r.bodiesKept ? "(none)" : "(no longer kept)"));
  $("#request-detail").replaceChildren(
    el("h2", {}, `${r.method} ${r.path}`),
    el("dl", {},
      el("dt", {}, "Query"), el("dd", { className: "mono", dataset: { testid: "request-query" } }, r.query || "–"),
      el("dt", {}, "Status"), el("dd", {}, String(r.status)),
      el("dt", {}, "At"), el("dd", {}, r.at),
      el("dt", {}, "Took"), el("dd", {}, `${r.durationMs} ms`),
      r.apiKey && el("dt", {}, "API key"), r.apiKey && el("dd", { className: "mono" }, r.apiKey)),
    body("Request", r.request),
    body("Response", r.response),
    el("form", { method: "dialog" }, el("button", {}, "Close")));
  $("#request-dialog").showModal();
}

function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function wireRequests() {
  $("#request-filters").addEventListener("change", refreshRequests);
  $("#request-filters").addEventListener("submit", (event) => (event.preventDefault(), refreshRequests()));
}
