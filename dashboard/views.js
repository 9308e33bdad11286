// The dashboard's three pages, each built from the simulator's answers: the collections, one
// collection (its items and volume per day), one item (its metadata, holders, listings, sale prices).
import { chart } from "./charts.js";
import { api, count, el, link, picture, short, usd, when } from "./lib.js";

const COLUMNS = [
  ["name", "Name"], ["chainId", "Chain"], ["genre", "Genre"], ["holders", "Holders", true],
  ["volume_1d", "Volume 1d", true], ["volume_all", "Volume all", true], ["mintDate", "Minted"],
];

export async function collectionsView(params) {
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
      el("td", {}, el("span", { className: "name" }, picture(c.image, c.address, { size: 28, className: "thumb" }), link(`#/collection/${c.address}`, c.name))),
      el("td", {}, String(c.chainId)), el("td", {}, c.genre),
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

/** `#/collection/<address>`, or `#/collection/<chainId>/<slug>` (what the shipped worlds give as a collection's website). */
export async function collectionView(first, second) {
  let address = first;
  if (second !== undefined) {
    const { collections } = await api(`/api/v2/collection?chainId=${encodeURIComponent(first)}&slug=${encodeURIComponent(second)}&perPage=1`);
    if (collections.length === 0) return [el("p", {}, `No collection '${second}' on chain ${first}.`)];
    address = collections[0].address;
  }
  const { collection: c } = await api(`/api/v2/collection/${address}`);
  const chainQuery = `chainId=${c.chainId}`;
  const [{ items }, { days }] = await Promise.all([
    api(`/_sim/collections/${address}/items?${chainQuery}`).catch(() => ({ items: [] })),
    api(`/_sim/collections/${address}/volume?${chainQuery}`).catch(() => ({ days: [] })),
  ]);
  const cards = items.map((item) =>
    el("a", { className: "card", href: `#/item/${address}/${item.tokenId}`, dataset: { testid: "item-card" } },
      picture(item.image, `${c.chainId}-${address}-${item.tokenId}`, { size: 150, alt: item.name }),
      el("strong", {}, item.name || `#${item.tokenId}`),
      el("span", { className: "muted" }, `#${item.tokenId} · ${count(item.supply)} of ${count(item.maxSupply)} · ${item.holders} holder${item.holders === 1 ? "" : "s"}`)));
  return [
    el("p", {}, link("#/", "← collections")),
    el("div", { className: "hero" },
      picture(c.image, c.address, { size: 160, alt: c.name, className: "hero-image" }),
      el("div", {},
        el("h1", {}, c.name),
        c.description && el("p", {}, c.description),
        el("dl", {},
          el("dt", {}, "Address"), el("dd", { className: "mono" }, c.address),
          el("dt", {}, "Chain"), el("dd", {}, String(c.chainId)),
          el("dt", {}, "Genre"), el("dd", {}, c.genre || "–"),
          el("dt", {}, "Owner"), el("dd", { className: "mono" }, c.ownerAddress),
          el("dt", {}, "Holders"), el("dd", {}, String(c.holders)),
          el("dt", {}, "Volume 1d / 1w / 30d / all"), el("dd", {}, [c.volume_1d, c.volume_1w, c.volume_30d, c.volume_all].map(usd).join(" / ")),
          el("dt", {}, "Minted"), el("dd", {}, c.mintDate),
          c.website && el("dt", {}, "Website"), c.website && el("dd", {}, link(c.website, c.website))))),
    chart("volume-chart", "Volume per day (USD)", days.map((d) => [Date.parse(`${d.day}T00:00:00Z`) / 1000, d.volume]), { kind: "bars" }),
    el("h2", {}, `Items (${items.length})`),
    el("div", { className: "grid", dataset: { testid: "items" } }, ...cards),
  ];
}

export async function itemView(address, tokenId, params) {
  const page = Number(params.get("page") ?? 1);
  const [item, { events }] = await Promise.all([
    api(`/_sim/collections/${address}/items/${tokenId}`),
    api(`/api/v2/item/events/${address}/${tokenId}?perPage=25&page=${page}`),
  ]);
  const go = (next) => (location.hash = `#/item/${address}/${tokenId}?page=${next}`);
  const table = (testid, headings, rows) =>
    el("table", { dataset: { testid } },
      el("thead", {}, el("tr", {}, ...headings.map(([h, numeric]) => el("th", { className: numeric ? "num" : "" }, h)))),
      el("tbody", {}, ...rows));
  const cell = (text, className = "") => el("td", { className }, text);
  return [
    el("p", {}, link(`#/collection/${address}`, "← collection")),
    el("div", { className: "hero" },
      picture(item.image, item.itemRef, { size: 220, alt: item.name, className: "hero-image" }),
      el("div", {},
        el("h1", {}, item.name || `Item #${tokenId}`),
        item.description && el("p", {}, item.description),
        el("dl", {},
          el("dt", {}, "Token"), el("dd", { className: "mono" }, `#${tokenId} of ${address}`),
          el("dt", {}, "Supply"), el("dd", { dataset: { testid: "supply" } }, `${count(item.supply)} of at most ${count(item.maxSupply)}`),
          el("dt", {}, "Kind"), el("dd", {}, [item.isStackable ? "stackable" : "one of a kind", item.isConsumable ? "consumable" : ""].filter(Boolean).join(", ")),
          el("dt", {}, "Royalty"), el("dd", {}, `${item.royaltyFee / 10}%`)),
        item.properties.length > 0 &&
          el("ul", { className: "properties", dataset: { testid: "properties" } },
            ...item.properties.map((p) => el("li", { title: p.static ? "static: never changes" : "may change" }, el("span", { className: "muted" }, p.name), " ", el("strong", {}, p.value), p.static ? el("span", { className: "muted" }, " · static") : ""))))),
    chart("price-chart", "Sale prices (USD per item)", item.sales.map((s) => [s.timestamp, s.usdPrice])),
    el("div", { className: "columns" },
      el("section", {},
        el("h2", {}, `Holders (${item.holders.length})`),
        table("holders", [["Address"], ["Balance", true], ["Listed", true]],
          item.holders.map((h) => el("tr", {}, cell(short(h.address), "mono"), cell(count(h.balance), "num"), cell(count(h.listed), "num"))))),
      el("section", {},
        el("h2", {}, `Open listings (${item.listings.length})`),
        table("listings", [["Listing"], ["Seller"], ["Amount", true], ["Price", true], ["USD", true]],
          item.listings.map((l) => el("tr", {}, cell(`#${l.listingId}`), cell(short(l.seller), "mono"), cell(count(l.amount), "num"), cell(String(l.price), "num"), cell(usd(l.usdPrice), "num")))))),
    el("h2", {}, "History"),
    table("history", [["Event"], ["When"], ["From"], ["To"], ["Amount", true], ["Price", true], ["Transaction"]],
      events.map((e) => el("tr", {},
        cell(e.event), cell(when(e.timestamp)), cell(e.from ? short(e.from) : "", "mono"), cell(e.to ? short(e.to) : "", "mono"),
        cell(String(e.amount), "num"), cell(e.price === undefined ? "" : String(e.price), "num"), cell(short(e.transactionHash), "mono")))),
    el("div", { className: "pager" },
      el("button", { disabled: page <= 1, onclick: () => go(page - 1) }, "← newer"),
      el("span", {}, `page ${page}`),
      el("button", { disabled: events.length < 25, onclick: () => go(page + 1) }, "older →")),
  ];
}
