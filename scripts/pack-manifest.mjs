// `npm pack` (and `npm publish`) ship package.json as it is on disk. What only the clone uses goes: its scripts (npm
// lists a tarball's `prepare` among the install scripts a project must review), devDependencies, devEngines,
// allowScripts and scarfSettings. `strip` (the last step of prepack) keeps the whole file beside it and writes the
// package's; `restore` (postpack) puts the whole one back. A pack that died between them is restored by the next
// `strip`, or by `node scripts/pack-manifest.mjs restore`.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const manifest = fileURLToPath(new URL("../package.json", import.meta.url));
const whole = `${manifest}.whole`;
const CLONE_ONLY = ["scripts", "devDependencies", "devEngines", "allowScripts", "scarfSettings"];

const restore = () => existsSync(whole) && renameSync(whole, manifest);

const action = process.argv[2];
if (action === "strip") {
  restore();
  const text = readFileSync(manifest, "utf8");
  writeFileSync(whole, text);
  const packed = JSON.parse(text);
  for (const field of CLONE_ONLY) delete packed[field];
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (action === "restore") {
  restore();
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
