import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";

/** The reference page's assets, served from the installed swagger-ui-dist package (never a CDN). */
const ASSETS = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
} as const;

/** The assets change only with the installed package: browsers may keep them for a day. */
const ASSET_CACHE = "public, max-age=86400";

let assetDir: string | undefined;
const assetCache = new Map<string, string>();
function asset(name: keyof typeof ASSETS): string {
  assetDir ??= dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  let text = assetCache.get(name);
  if (text === undefined) {
    text = readFileSync(join(assetDir, name), "utf8");
    assetCache.set(name, text);
  }
  return text;
}

/**
 * `GET /docs`: the API reference page for the host's `/openapi.json` (Swagger UI), working offline: its
 * script and stylesheet come from the installed package under `/docs/`, and the page loads nothing from
 * another host. The start-up script is a file too, so the page needs no inline script.
 */
export function registerDocsPage(app: OpenAPIHono, title: string): void {
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;
  const init = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#app", deepLinking: true });\n`;
  app.get("/docs", (c) => c.html(html));
  app.get("/docs/init.js", (c) =>
    c.body(init, 200, { "Content-Type": ASSETS["swagger-ui-bundle.js"], "Cache-Control": ASSET_CACHE }),
  );
  for (const name of Object.keys(ASSETS) as (keyof typeof ASSETS)[]) {
    app.get(`/docs/${name}`, (c) =>
      c.body(asset(name), 200, { "Content-Type": ASSETS[name], "Cache-Control": ASSET_CACHE }),
    );
  }
}
