import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { buildOpenApiDocument } from "../openapi/document.ts";
import { withErrorTable } from "../openapi/error-table.ts";
import { commandLine, runAsScript, HELP } from "./command-line.ts";

/** The usage text as `command` runs it, writing where `byDefault` says when no path is given. */
const usageOf = (command: string, byDefault: string) => `Usage: ${command} [path]

Writes the OpenAPI 3.1 document of the API to path (default ${byDefault}).

  -h, --help           show this help`;

export const USAGE = usageOf(
  "npm run openapi --",
  `docs/openapi.json; then also the error
table of docs/api.md, both derived from the route table and the error catalog`,
);

/** `nft-sim openapi`: the document to standard output when no path is given, and no error table. */
export const NFT_SIM_USAGE = usageOf("nft-sim openapi", "standard output");

/**
 * `npm run openapi [-- <path>]` (default docs/openapi.json) and `nft-sim openapi [path]`
 * (default: standard output). Resolves with the exit code: 0 done, 1 failed, 2 usage error.
 */
export async function writeOpenApi(argv: string[], usage = USAGE, defaultPath: string | null = "docs/openapi.json") {
  const line = commandLine({ args: argv, options: HELP, allowPositionals: true }, usage, ({ positionals }) => {
    if (positionals.length > 1) throw new Error(`one path at most, not ${positionals.length}`);
  });
  if (typeof line === "number") return line;
  const path = line.positionals[0] ?? defaultPath;
  const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
  if (path === null) {
    process.stdout.write(text);
    return 0;
  }
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(resolve(path), text);
  } catch (error) {
    console.error(`cannot write ${path}: ${(error as Error).message}`);
    return 1;
  }
  console.log(`OpenAPI document written to ${resolve(path)}`);
  if (path === defaultPath && path === "docs/openapi.json") {
    await writeFile("docs/api.md", withErrorTable(await readFile("docs/api.md", "utf8")));
    console.log(`Error table written to ${resolve("docs/api.md")}`);
  }
  return 0;
}

await runAsScript(import.meta.url, writeOpenApi);
