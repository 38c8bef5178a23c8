/**
 * An example integrator app: a swap page with its own small backend, as the specification asks of
 * integrators (the builder key stays on the server). The browser talks only to this backend and to the
 * user's wallet; the backend talks to Junction through the SDK:
 *
 *   GET  /api/tokens       the builder API's starter token list
 *   GET  /api/comparison   the public comparison (`GET /api/v2/quote`, keyless): every candidate, fees
 *   POST /api/swaps        a builder quote for the payer, then its prepared transaction and approval
 *   POST /webhooks/junction  Junction's settlement webhooks: verified with the SDK's `verifyWebhook`
 *                          against the raw body, deduplicated by event id, remembered by quote id
 *   GET  /api/settlements/:quoteId  what the webhooks said of that swap (the page asks this, not Junction)
 *   POST /api/receipts     fallback only, when no webhook secret is configured: receipt polling
 *
 * Run it beside `npm start`: `npm run example:swap`. On the devnet it needs nothing else: it reads the demo
 * key from the manifest and registers its own webhook URL (http://127.0.0.1:8790/webhooks/junction) for
 * the demo workspace with the operator CLI (devnet-webhook.ts), keeping the secret in memory. For another
 * deployment set JUNCTION_URL and JUNCTION_API_KEY, have the workspace owner add this backend's public
 * `https://…/webhooks/junction` as an endpoint (portal Webhooks panel, or `junction webhooks add
 * --workspace <code> --url <url> --json`) and pass its secret as JUNCTION_WEBHOOK_SECRET (two,
 * comma-separated, while one is rotated out). Without a secret the page falls back to polling receipts,
 * and says so. It uses the SDK as an outside project does: `npm run example:swap` first installs the
 * packed tarball into examples/swap-page/node_modules (scripts/install-packed-sdk.mjs).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createJunctionClient, JunctionApiError, verifyWebhook, WebhookSignatureError } from "@junction/sdk";
import { build } from "esbuild";
import { Hono } from "hono";
import { registerDevnetWebhook } from "./devnet-webhook.ts";
import { createSettlementStore, type SettlementStore } from "./settlement-store.ts";

/** Where this backend receives Junction's webhooks. */
export const WEBHOOK_PATH = "/webhooks/junction";

export type SwapExampleOptions = {
  /** Junction's {base_url}. */
  junctionUrl: string;
  /** A builder key with quote, swap, tokens and receipts scopes. Never sent to the browser. */
  apiKey: string;
  /**
   * The webhook endpoint's signing secret (or two during a rotation). Without it the page polls receipts
   * instead (the fallback), and webhook deliveries are refused.
   */
  webhookSecret?: string | readonly string[] | undefined;
  /** Where verified deliveries are remembered (a fresh in-memory store by default). */
  settlements?: SettlementStore;
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
  const settlements = options.settlements ?? createSettlementStore();
  const { webhookSecret } = options;
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
  app.post(WEBHOOK_PATH, async (c) => {
    if (!webhookSecret)
      return c.json({ error: { code: "WEBHOOKS_OFF", message: "no webhook secret configured" } }, 404);
    // The raw body, exactly as signed: parsing it first and signing the re-serialized JSON would not verify.
    const body = await c.req.text();
    let event: Awaited<ReturnType<typeof verifyWebhook>>;
    try {
      event = await verifyWebhook(body, c.req.header("junction-signature"), webhookSecret);
    } catch (error) {
      if (error instanceof WebhookSignatureError)
        return c.json({ error: { code: "BAD_SIGNATURE", reason: error.reason } }, 400);
      throw error;
    }
    if (event.type === "webhook.test") return c.json({ received: true });
    const fresh = settlements.record(event, c.req.header("junction-delivery-id"));
    // A repeat is answered 2xx too: Junction stops retrying it.
    return c.json({ received: true, duplicate: !fresh });
  });
  app.get("/api/settlements/:quoteId", (c) =>
    c.json({
      push: webhookSecret !== undefined,
      settlement: settlements.get(c.req.param("quoteId")) ?? null,
    }),
  );
  // Fallback only: the page polls receipts through this when the backend has no webhook secret.
  app.post("/api/receipts", async (c) => {
    const body = (await c.req.json()) as { quoteId: string; hash: string };
    return c.json(await junction.builders.receipts({ quoteId: body.quoteId, hash: body.hash }));
  });
  return app;
}

/** Starts the example's server; resolves with its URL, its settlement store and a stop function. */
export async function startSwapExample(options: SwapExampleOptions) {
  const settlements = options.settlements ?? createSettlementStore();
  const app = createSwapExampleApp({ ...options, settlements });
  return new Promise<{ url: string; settlements: SettlementStore; stop: () => Promise<void> }>((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? 0, hostname: options.host ?? "127.0.0.1" },
      (info: AddressInfo) =>
        resolve({
          url: `http://${options.host ?? "127.0.0.1"}:${info.port}`,
          settlements,
          stop: () => new Promise((done) => server.close(() => done())),
        }),
    );
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dataDir = process.env.JUNCTION_DATA_DIR ?? "data";
  const manifestPath = `${dataDir}/devnet/manifest.json`;
  const manifest = () =>
    JSON.parse(readFileSync(manifestPath, "utf8")) as {
      demoWorkspace?: { workspaceId: string; keys: { all: string } };
    };
  // The devnet's demo workspace, unless pointed at another deployment (or no devnet was ever started here).
  const devnet =
    process.env.JUNCTION_URL === undefined && existsSync(manifestPath) ? manifest().demoWorkspace : undefined;
  const apiKey = process.env.JUNCTION_API_KEY ?? devnet?.keys.all;
  if (!apiKey)
    throw new Error("set JUNCTION_API_KEY (a builder key with quote, swap, tokens and receipts scopes)");
  const junctionUrl = process.env.JUNCTION_URL ?? `http://127.0.0.1:${process.env.JUNCTION_PORT ?? 8787}`;
  const port = Number(process.env.PORT ?? 8790);
  const webhookUrl = `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
  let webhookSecret = process.env.JUNCTION_WEBHOOK_SECRET?.split(",").map((secret) => secret.trim());
  let pushed = webhookSecret ? "webhooks verified with JUNCTION_WEBHOOK_SECRET" : undefined;
  if (!webhookSecret && devnet) {
    const registered = await registerDevnetWebhook({
      dataDir,
      databaseUrl: process.env.DATABASE_URL,
      workspaceId: devnet.workspaceId,
      url: webhookUrl,
    });
    webhookSecret = [registered.secret];
    pushed = `webhook endpoint ${registered.endpointId} registered for the demo workspace at ${webhookUrl}`;
  }
  const { url } = await startSwapExample({ junctionUrl, apiKey, port, webhookSecret });
  console.log(`swap example on ${url} (Junction at ${junctionUrl}; the builder key stays on this server)`);
  console.log(
    pushed ??
      "no JUNCTION_WEBHOOK_SECRET: settlements are followed by polling receipts (fallback); see the header of examples/swap-page/server.ts",
  );
}
