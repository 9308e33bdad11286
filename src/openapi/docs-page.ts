import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The files of swagger-ui-dist that /docs serves, from node_modules: the page needs no network. */
export const DOCS_ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

let swaggerUiDir: string | undefined;

export function docsAssetPath(name: string): string | undefined {
  if (!Object.hasOwn(DOCS_ASSETS, name)) return undefined;
  swaggerUiDir ??= dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return join(swaggerUiDir, name);
}

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>NFT service simulator: API reference</title>
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;
