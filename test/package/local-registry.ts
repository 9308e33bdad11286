import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync, realpathSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { delimiter, join } from "node:path";

// An npm registry on 127.0.0.1 that serves what this tree's package-lock.json holds and nothing more: for each locked
// package a packument listing only its locked versions, and each tarball out of npm's own content-addressed cache (which
// `npm install` / `npm ci` fill), found by the lock's integrity. A locked package whose tarball the cache lacks (another
// platform's optional binding) answers 404: npm needs its packument, never its tarball. So the package test installs
// into an empty project as a user does, with no network.

/** The fields of a lock entry that a registry's version manifest carries. */
const MANIFEST_FIELDS = [
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bin",
  "engines",
  "os",
  "cpu",
  "libc",
  "hasInstallScript",
  "deprecated",
] as const;

interface Version {
  manifest: Record<string, unknown>;
  integrity: string;
}

/** A package's versions, and the one npm resolves at the top of node_modules (its `latest`). */
interface Locked {
  versions: Map<string, Version>;
  latest: string;
}

export interface LocalRegistry {
  /** Where npm finds it: `npm_config_registry`. */
  url: string;
  /** Every request, as "GET /path 200", in the order served. */
  served: string[];
  /** The tarballs served, as "name@version". */
  fetched: Set<string>;
  close(): Promise<void>;
}

/** npm's cacache, from the npm on PATH (the one that filled the cache), so the cache is read as npm writes it. */
function npmCacache(): {
  get: {
    byDigest(cache: string, integrity: string): Promise<Buffer>;
    info(cache: string, key: string): Promise<{ integrity: string } | null>;
  };
} {
  const npm = (process.env.PATH ?? "")
    .split(delimiter)
    .map((dir) => join(dir, "npm"))
    .find((path) => {
      try {
        return realpathSync(path).endsWith(join("bin", "npm-cli.js"));
      } catch {
        return false;
      }
    });
  if (!npm) throw new Error("no npm on PATH: the local registry reads npm's cache with npm's own cacache");
  return createRequire(realpathSync(npm))("cacache");
}

const tarballName = (name: string, version: string) => `${name.replace(/^@[^/]+\//, "")}-${version}.tgz`;

/** The packages of a lockfile (v2 or v3), by name: each locked version's manifest and integrity. */
function lockedVersions(lockfile: string): Map<string, Locked> {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as {
    packages: Record<string, Record<string, unknown> & { version?: string; integrity?: string; name?: string }>;
  };
  const byName = new Map<string, Locked>();
  for (const [path, entry] of Object.entries(packages)) {
    if (!path.includes("node_modules/") || !entry.version || !entry.integrity) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const manifest: Record<string, unknown> = { name, version: entry.version };
    for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) manifest[field] = entry[field];
    const locked = byName.get(name) ?? { versions: new Map<string, Version>(), latest: entry.version };
    locked.versions.set(entry.version, { manifest, integrity: entry.integrity });
    if (path === `node_modules/${name}`) locked.latest = entry.version;
    byName.set(name, locked);
  }
  return byName;
}

/** A package npm's cache holds but the lock does not, by the registry address it was fetched from. */
async function cachedVersion(
  cacache: ReturnType<typeof npmCacache>,
  cache: string,
  name: string,
  version: string,
): Promise<Version | undefined> {
  const key = `make-fetch-happen:request-cache:https://registry.npmjs.org/${name}/-/${tarballName(name, version)}`;
  const info = await cacache.get.info(cache, key);
  if (!info) return undefined;
  const tarball = await cacache.get.byDigest(cache, info.integrity);
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", "-", "package/package.json"], { input: tarball }).toString(),
  );
  const kept: Record<string, unknown> = { name, version };
  for (const field of MANIFEST_FIELDS) if (manifest[field] !== undefined) kept[field] = manifest[field];
  return { manifest: kept, integrity: info.integrity };
}

/** The integrity's digest, checked again here: the cache is trusted for nothing. */
function matches(integrity: string, data: Buffer): boolean {
  return integrity.split(/\s+/).some((one) => {
    const [algorithm, digest] = [one.slice(0, one.indexOf("-")), one.slice(one.indexOf("-") + 1)];
    return createHash(algorithm).update(data).digest("base64") === digest;
  });
}

/**
 * Starts the registry. `lockfile`'s packages are served; `also` names packages beyond it ("name@version") that npm
 * fetches at install time (a package's own install script asking for a platform's binary), served only if npm's cache
 * (`cache`, npm's cache folder) holds them.
 */
export async function startLocalRegistry({
  lockfile,
  cache,
  also = [],
}: {
  lockfile: string;
  cache: string;
  also?: string[];
}): Promise<LocalRegistry> {
  const cacache = npmCacache();
  const content = join(cache, "_cacache");
  const packages = lockedVersions(lockfile);
  for (const spec of also) {
    const at = spec.lastIndexOf("@");
    const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
    const found = await cachedVersion(cacache, content, name, version);
    if (found) packages.set(name, { versions: new Map([[version, found]]), latest: version });
  }
  const tarballs = new Map<string, { integrity: string; spec: string }>();
  const served: string[] = [];
  const fetched = new Set<string>();
  let base = "";

  const packument = (name: string, { versions, latest }: Locked) => {
    const entries = [...versions].map(([version, { manifest, integrity }]) => {
      const path = `/${name}/-/${tarballName(name, version)}`;
      tarballs.set(path, { integrity, spec: `${name}@${version}` });
      return [version, { ...manifest, dist: { integrity, tarball: `${base}${path}` } }] as const;
    });
    return { name, "dist-tags": { latest }, versions: Object.fromEntries(entries) };
  };

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<number> => {
    const path = decodeURIComponent(new URL(request.url ?? "/", base).pathname);
    const locked = packages.get(path.slice(1));
    if (request.method === "GET" && locked) {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(packument(path.slice(1), locked)));
      return 200;
    }
    const tarball = request.method === "GET" ? tarballs.get(path) : undefined;
    const data = tarball && (await cacache.get.byDigest(content, tarball.integrity).catch(() => undefined));
    if (tarball && data && matches(tarball.integrity, data)) {
      fetched.add(tarball.spec);
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": data.length }).end(data);
      return 200;
    }
    response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
    return 404;
  };

  const server = createServer((request, response) => {
    answer(request, response).then(
      (status) => served.push(`${request.method} ${request.url} ${status}`),
      (error: Error) => {
        served.push(`${request.method} ${request.url} 500`);
        response.writeHead(500).end(error.message);
      },
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    served,
    fetched,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The environment of an npm that installs from `registry` only, into a cache of its own (`cache`, so every package
 * comes through the registry): a proxy that answers nothing stands for every other address, so a request that would
 * leave the machine fails at once instead of reaching the network.
 */
export function offlineNpm(registry: LocalRegistry, cache: string): Record<string, string> {
  return {
    npm_config_registry: registry.url,
    npm_config_cache: cache,
    npm_config_proxy: "http://127.0.0.1:9",
    npm_config_https_proxy: "http://127.0.0.1:9",
    npm_config_noproxy: "127.0.0.1",
  };
}
