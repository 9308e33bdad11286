// Loaded with --import: writes the URL of every module the process resolves to RECORD_MODULES_TO.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.RECORD_MODULES_TO;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    appendFileSync(file, `${result.url}\n`);
    return result;
  },
});
