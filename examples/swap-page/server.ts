/**
 * An example integrator app: a swap page with its own small backend, as the specification asks of
 * integrators (the builder key stays on the server). The browser talks only to this backend and to the
 * user's wallet; the backend talks to Junction through the SDK:
 *
 *   GET  /api/tokens       the builder API's starter token list
 *   GET  /api/comparison   the public comparison (`GET /api/v2/quote`, keyless): every candidate, fees
 *   POST /api/swaps        a builder quote for the payer, then its prepared transaction and approval
 *   POST /api/receipts     receipt verification: `confirming` until finality, then `finalized`
 *
 * Run it beside `npm start`: `npm run example:swap` (reads the devnet's demo key from the manifest), or
 * set JUNCTION_URL and JUNCTION_API_KEY for another deployment. It uses the SDK as an outside project
 * does: `npm run example:swap` first installs the packed tarball into examples/swap-page/node_modules
 * (scripts/install-packed-sdk.mjs).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createJunctionClient, JunctionApiError } from "@junction/sdk";
import { build } from "esbuild";
import { Hono } from "hono";

export type SwapExampleOptions = {
  /** Junction's {base_url}. */
  junctionUrl: string;
  /** A builder key with quote, swap, tokens and receipts scopes. Never sent to the browser. */
  apiKey: string;
  port?: number;
  host?: string;
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Swap — Junction example</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1b1f24; background: #f4f6f8; }
  main { max-width: 880px; margin: 0 auto; padding: 24px; }
  section { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
  label { display: block; font-size: 14px; margin: 6px 0 4px; }
  input, select { font: inherit; padding: 6px 8px; border: 1px solid #c4cad1; border-radius: 6px; }
  button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #0b7a55; background: #0b7a55; color: #fff; cursor: pointer; }
  button:disabled { opacity: .5; cursor: default; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #eceff2; }
  tr.selected { background: #eefaf4; font-weight: 600; }
  .row { display: flex; gap: 12px; align-items: end; flex-wrap: wrap; }
  .mono { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; }
  .error { color: #b42318; } .muted { color: #5f6b7a; font-size: 14px; }
</style>
</head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body>
</html>`;

async function bundleApp(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./app.tsx", import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

export function createSwapExampleApp(options: SwapExampleOptions): Hono {
  const junction = createJunctionClient({ baseUrl: options.junctionUrl, apiKey: options.apiKey });
  const bundle = bundleApp();
  bundle.catch(() => {});
  const app = new Hono();
  app.onError((error, c) => {
    // Junction's own error code and message are safe to show; anything else is ours to log.
    if (error instanceof JunctionApiError)
      return c.json({ error: { code: error.code, message: error.message } }, error.status as 400);
    console.error(error);
    return c.json({ error: { code: "EXAMPLE_ERROR", message: "the example backend failed" } }, 500);
  });
  app.get("/", (c) => c.html(PAGE));
  app.get("/app.js", async (c) => c.body(await bundle, 200, { "Content-Type": "text/javascript" }));
  app.get("/api/tokens", async (c) => {
    const { tokens } = await junction.builders.tokens();
    return c.json({
      tokens: tokens.flatMap(({ address, metadata, pools }) =>
        metadata && pools > 0 ? [{ address, symbol: metadata.symbol, decimals: metadata.decimals }] : [],
      ),
    });
  });
  app.get("/api/comparison", async (c) => {
    const { tokenIn = "", tokenOut = "", amountIn = "" } = c.req.query();
    return c.json(await junction.quote({ chainId: "4663", tokenIn, tokenOut, amountIn }));
  });
  app.post("/api/swaps", async (c) => {
    const body = (await c.req.json()) as Record<string, string>;
    const quote = await junction.builders.quote({
      tokenIn: body.tokenIn ?? "",
      tokenOut: body.tokenOut ?? "",
      amountIn: body.amountIn ?? "",
      payer: body.payer ?? "",
      slippageBps: "50",
      // The candidate the page showed as selected is the one swapped, whoever it is: each source settles
      // through Junction's executor, so the builder quote can name it.
      ...(body.provider ? { provider: body.provider as "service" } : {}),
    });
    const prepared = await junction.builders.prepareSwap(quote.quoteId, randomUUID());
    // The page counts the quote down on this server's clock (its own may differ).
    return c.json({ quote, prepared, serverTime: Date.now() });
  });
  app.post("/api/receipts", async (c) => {
    const body = (await c.req.json()) as { quoteId: string; hash: string };
    return c.json(await junction.builders.receipts({ quoteId: body.quoteId, hash: body.hash }));
  });
  return app;
}

/** Starts the example's server; resolves with its URL and a stop function. */
export async function startSwapExample(options: SwapExampleOptions) {
  const app = createSwapExampleApp(options);
  return new Promise<{ url: string; stop: () => Promise<void> }>((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? 0, hostname: options.host ?? "127.0.0.1" },
      (info: AddressInfo) =>
        resolve({
          url: `http://${options.host ?? "127.0.0.1"}:${info.port}`,
          stop: () => new Promise((done) => server.close(() => done())),
        }),
    );
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dataDir = process.env.JUNCTION_DATA_DIR ?? "data";
  const manifest = () =>
    JSON.parse(readFileSync(`${dataDir}/devnet/manifest.json`, "utf8")) as {
      demoWorkspace?: { keys: { all: string } };
    };
  const apiKey = process.env.JUNCTION_API_KEY ?? manifest().demoWorkspace?.keys.all;
  if (!apiKey)
    throw new Error("set JUNCTION_API_KEY (a builder key with quote, swap, tokens and receipts scopes)");
  const junctionUrl = process.env.JUNCTION_URL ?? `http://127.0.0.1:${process.env.JUNCTION_PORT ?? 8787}`;
  const { url } = await startSwapExample({ junctionUrl, apiKey, port: Number(process.env.PORT ?? 8790) });
  console.log(`swap example on ${url} (Junction at ${junctionUrl}; the builder key stays on this server)`);
}
