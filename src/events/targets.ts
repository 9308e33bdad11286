import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { apiError, ERRORS } from "../core/errors.ts";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An address on this machine's loopback (127.0.0.0/8, ::1, and 127.x written as IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return loopback.check(mapped, "ipv4");
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? "ipv4" : "ipv6");
}

const refused = (url: string, why: string) => {
  const error = `url '${url}': ${why}; webhooks go to loopback unless --webhook-hosts allows the host`;
  return apiError(ERRORS.WEBHOOK_URL_REFUSED, {}, { errors: [error] });
};

/**
 * Where webhooks may be sent: loopback, unless `--webhook-hosts` names the host (or is `*`).
 * A dev tool must not become a way to send requests into the network it runs in, so a name
 * must resolve only to loopback addresses, when the webhook is added and again each time a
 * delivery connects (a name can be made to resolve elsewhere later); redirects are never followed.
 */
export class WebhookTargets {
  readonly #allowed: ReadonlySet<string>;
  /**
   * The simulator's own API port: a webhook there would drive the control API with every event (a reset per event,
   * say).
   */
  #ownPort: number | undefined;

  constructor(allowedHosts: readonly string[] = []) {
    this.#allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  }

  /** The port the simulator's API listens on, once it does. */
  servesOn(port: number): void {
    this.#ownPort = port;
  }

  /** The URL, checked: http(s), and a host allowed; throws a 400 naming what is wrong. */
  async check(given: string): Promise<URL> {
    if (!URL.canParse(given)) throw refused(given, "not a URL");
    const url = new URL(given);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw refused(given, `${url.protocol} is not http(s)`);
    const host = hostOf(url);
    if (isIP(host) && !this.#isAllowed(host) && !isLoopbackAddress(host))
      throw refused(given, `${host} is not a loopback address`);
    if (!isIP(host) && !this.#isAllowed(host)) {
      const addresses = await lookup(host, { all: true }).catch((error: Error) => {
        throw refused(given, `'${host}' does not resolve (${error.message})`);
      });
      const elsewhere = offLoopback(addresses);
      if (elsewhere.length > 0) throw refused(given, `'${host}' resolves to ${elsewhere.join(", ")}, not loopback`);
    }
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    if (port === this.#ownPort) {
      const address = isIP(host) ? host : ((await lookup(host, { all: true }).catch(() => []))[0]?.address ?? "");
      if (isLoopbackAddress(address)) throw refused(given, "it is the simulator itself (its API port)");
    }
    return url;
  }

  /** How a delivery to `url` resolves its host: a name not allowed as such must still resolve only to loopback. */
  lookupFor(url: URL): LookupFunction | undefined {
    const host = hostOf(url);
    if (this.#isAllowed(host) || isIP(host)) return undefined;
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, "", 0);
        const elsewhere = offLoopback(addresses);
        if (elsewhere.length > 0 || addresses.length === 0) {
          const why = `'${hostname}' now resolves to ${elsewhere.join(", ")}, not loopback: not sent`;
          return callback(Object.assign(new Error(why), { code: "EWEBHOOKHOST" }), "", 0);
        }
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
  }

  #isAllowed(host: string): boolean {
    return this.#allowed.has("*") || this.#allowed.has(host);
  }
}

/** The URL's host as a name or an address (IPv6 without its brackets), lower case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/** The addresses that are not on loopback. */
function offLoopback(addresses: LookupAddress[]): string[] {
  return addresses.map(({ address }) => address).filter((address) => !isLoopbackAddress(address));
}
