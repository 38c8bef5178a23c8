import type { OpenAPIHono } from "@hono/zod-openapi";
import { webBundle } from "../../web-bundle.ts";

/** The portal's browser app (web/portal), bundled on first use. */
const portalBundle = webBundle(new URL("../../../../web/portal/main.tsx", import.meta.url));

/** Scripts only from this origin; the page talks only to this origin (the wallet is an extension). */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Junction developer portal</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1b1f24; background: #f6f7f9; }
  body { margin: 0; }
  main { max-width: 960px; margin: 0 auto; padding: 24px; }
  header { display: flex; justify-content: space-between; align-items: center; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
  h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 0; }
  label { display: block; margin: 8px 0 4px; font-size: 14px; }
  input, select { font: inherit; padding: 6px 8px; border: 1px solid #c4cad1; border-radius: 6px; }
  button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #2d5bd7; background: #2d5bd7; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #2d5bd7; }
  button:disabled { opacity: .5; cursor: default; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #eceff2; }
  code, .mono { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; }
  .error { color: #b42318; } .ok { color: #067647; } .muted { color: #5f6b7a; font-size: 14px; }
  .secret { background: #fff8e1; border: 1px solid #f5c84c; padding: 10px; border-radius: 6px; }
  .row { display: flex; gap: 12px; align-items: end; flex-wrap: wrap; }
</style>
</head>
<body>
<div id="root"></div>
<script type="module" src="/portal/app.js"></script>
</body>
</html>`;

/**
 * `GET /portal`: the developer portal (docs/rules.md, ours: developer portal): sign in with a wallet,
 * workspaces, activation, keys, webhooks, usage, profile and history, over `/portal/api`.
 */
export function registerPortalPage(app: OpenAPIHono): void {
  // Bundle in the background at start, so the first visitor does not wait for it.
  portalBundle().catch(() => {});
  app.get("/portal", (c) => c.html(PAGE, 200, { "Content-Security-Policy": CSP }));
  app.get("/portal/app.js", async (c) =>
    c.body(await portalBundle(), 200, { "Content-Type": "text/javascript; charset=utf-8" }),
  );
}
