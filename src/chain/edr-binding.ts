import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { promisify } from "node:util";

// Hardhat's EDR, which runs the in-process chains, loads its native code from a per-platform optional package
// (`@nomicfoundation/edr-linux-x64-gnu`, …) that requires Node >= 22. npm running on an older Node skips it, even in a
// project that runs its tests on a Node 22 it brings (the `node` package), and a later install of any package there
// prunes a copy installed beside the others. So before the first in-process chain starts, the binding is checked; when
// it does not load, that package is fetched through npm (its cache first) into a folder of its own, and its one file
// copied into EDR's own folder, where EDR looks first and where npm, which leaves an installed package's files alone,
// keeps it through later installs.

const require = createRequire(import.meta.url);
/** EDR as Hardhat resolves it (a project may nest a copy of its own under Hardhat). */
const edrRequire = createRequire(require.resolve("hardhat"));

let checked: Promise<void> | undefined;

/** Resolves once EDR's native binding loads, putting it in place first if npm left it out; rejects saying why not. */
export function ensureEdrBinding(log: (line: string) => void = (line) => console.error(line)): Promise<void> {
  return (checked ??= bindingLoads() ? Promise.resolve() : putInPlace(log));
}

function bindingLoads(): boolean {
  try {
    edrRequire("@nomicfoundation/edr");
    return true;
  } catch {
    return false;
  }
}

/**
 * The binding's package for this platform, as EDR names it, with the version EDR asks for, and the file EDR looks for
 * in its folder (`edrDir`: Hardhat's EDR, or another project's).
 */
export function bindingPackage(edrDir = dirname(edrRequire.resolve("@nomicfoundation/edr"))) {
  const { platform, arch } = process;
  const glibc = Boolean(
    (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
  );
  const suffix = { linux: glibc ? "-gnu" : "-musl", win32: "-msvc" }[platform as string] ?? "";
  const name = `@nomicfoundation/edr-${platform}-${arch}${suffix}`;
  const edr = JSON.parse(readFileSync(join(edrDir, "package.json"), "utf8")) as {
    version: string;
    optionalDependencies?: Record<string, string>;
  };
  const version = edr.optionalDependencies?.[name];
  if (!version) throw new Error(`EDR ${edr.version} has no native build for ${platform}-${arch}${suffix}`);
  return { name, version, file: `edr.${platform}-${arch}${suffix}.node`, edrDir };
}

async function putInPlace(log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const { name, version, file, edrDir } = bindingPackage();
  const spec = `${name}@${version}`;
  const folder = mkdtempSync(join(tmpdir(), "nft-sim-edr-"));
  try {
    // npm on this Node (22 or later): the binding's engines hold, so npm says nothing of them.
    const flags = "--no-save --no-package-lock --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error";
    await promisify(execFile)("npm", ["install", "--prefix", folder, ...flags.split(" "), spec], {
      env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` },
      shell: process.platform === "win32",
      timeout: 300_000,
    });
    const placing = join(edrDir, `${file}.${process.pid}.tmp`);
    copyFileSync(join(folder, "node_modules", name, file), placing);
    renameSync(placing, join(edrDir, file));
  } catch (error) {
    const why = ((error as { stderr?: string }).stderr || (error as Error).message).trim().split("\n").at(-1);
    throw new Error(
      `EDR's native binding (${spec}) is missing: npm skips it when it runs on a Node older than 22, and fetching it ` +
        `failed (${why}). With the npm registry reachable, start again; or install with npm on the project's Node 22: ` +
        `PATH="$PWD/node_modules/.bin:$PATH" npm install`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (!bindingLoads()) throw new Error(`EDR's native binding (${spec}) was put in ${edrDir} but still does not load`);
  log(
    `nft-service-simulator: put EDR's native binding (${spec}), which npm skipped, in ` +
      `${relative(process.cwd(), edrDir) || edrDir}, where later installs leave it ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}
