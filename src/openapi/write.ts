import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { buildOpenApiDocument } from "./document.ts";

/** `npm run openapi [-- <path>]`: writes the OpenAPI document, by default to docs/openapi.json. */
const path = resolve(process.argv[2] ?? "docs/openapi.json");
await mkdir(dirname(path), { recursive: true });
await writeFile(path, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`OpenAPI document written to ${path}`);
