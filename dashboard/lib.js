// Small helpers the dashboard's modules share: building elements, calling the simulator, formatting.

export const $ = (selector, root = document) => root.querySelector(selector);

export const el = (tag, { dataset = {}, ...props } = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.dataset, dataset);
  node.append(...children.flat().filter((child) => child !== undefined && child !== null && child !== false));
  return node;
};

export const link = (href, text) => el("a", { href }, text);
export const usd = (value) => `$${Number(value).toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
/** A token amount (a decimal string, maybe past 2^53) with thousands separators. */
export const count = (amount) => BigInt(amount).toLocaleString("en-US");
export const short = (address) => `${address.slice(0, 8)}…${address.slice(-4)}`;
export const when = (seconds) => new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16);

// Every call says it is the dashboard's: the request log leaves these out, so its polling never
// pushes a client's requests out of the log.
export const OWN = { "x-sim-dashboard": "1" };

export async function api(path, init = {}) {
  const response = await fetch(path, { ...init, headers: { ...OWN, ...init.headers } });
  const body = await response.json();
  if (!response.ok)
    throw Object.assign(new Error(`${response.status} ${body.error}: ${body.errors?.join("; ")}`), {
      status: response.status,
    });
  return body;
}

export const post = (path, body) =>
  api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

export const say = (text) => ($("#message").textContent = text);

/**
 * An image that always shows something: the URL an answer gave, or (when it gave none, or the URL
 * does not load, say an address on the internet while offline) the simulator's own picture of `seed`.
 */
export function picture(url, seed, { size = 96, alt = "", className = "" } = {}) {
  const own = `/images/${seed}.svg?size=${size * 2}`;
  const image = el("img", { src: url || own, alt, width: size, height: size, className });
  image.addEventListener("error", () => image.src !== new URL(own, location.href).href && (image.src = own), {
    once: true,
  });
  return image;
}
