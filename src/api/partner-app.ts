import type { OpenAPIHono } from "@hono/zod-openapi";
import { createApp } from "./create-app.ts";
import { registerDocsPage } from "./docs-page.ts";
import type { ErrorLog } from "./errors.ts";
import { type Lifecycle, registerReadinessRoute } from "./lifecycle.ts";
import type { Observer } from "./observe.ts";
import { registerHealthRoute } from "./routes/health.ts";
import type { PartnerApiDeps } from "./routes/partner/partner-api-deps.ts";
import { registerPartnerSecurity } from "./routes/partner/partner-openapi.ts";
import { registerPartnerQuoteRoute } from "./routes/partner/quote.ts";
import { registerPartnerTokensRoute } from "./routes/partner/tokens.ts";

export type PartnerAppDeps = {
  latestBlock: () => Promise<bigint>;
  logError: ErrorLog;
  /** Sees every answered request (access log, metrics); absent in tests. */
  observer?: Observer;
  /** Draining and readiness (`GET /readyz`); absent in tests. */
  lifecycle?: Lifecycle;
  /** The partner API; absent in tests of the listener alone. */
  partner?: PartnerApiDeps;
};

/**
 * The app behind {partner_url}, on its own listener (docs/rules.md, surfaces): `/tokens` and `/quote` with
 * bearer partner keys, paths without a version segment (docs/rules.md, versioning 5), and its own OpenAPI
 * document and reference page.
 */
export function createPartnerApp(deps: PartnerAppDeps): OpenAPIHono {
  const app = createApp(deps.logError, {
    ...(deps.observer ? { observer: deps.observer } : {}),
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
  });
  registerHealthRoute(app, deps.latestBlock);
  if (deps.lifecycle) registerReadinessRoute(app, deps.lifecycle);
  if (deps.partner) registerPartnerRoutes(app, deps.partner);
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Junction partner API",
      version: "1.0.0",
      description:
        "Token lookup and quotes on chain 4663 for partners holding a bearer key. With `recipient` (a key with swap permission) a quote carries the unsigned executor transaction, returned only after it ran at the quote block and delivered exactly the quoted output less the service fee. The service never signs or submits. Paths carry no version segment. A request the HTTP parser rejects (a malformed request line or header, an unknown method) is answered 400 `INVALID_REQUEST`, headers over 16 KiB 431 `HEADERS_TOO_LARGE`, a request that does not arrive within its time 408 `REQUEST_TIMEOUT`, each in the same error body and on a connection then closed; so is any answer given before the request body was read (e.g. 413 `PAYLOAD_TOO_LARGE`).",
    },
    servers: [{ url: "/", description: "{partner_url}" }],
  });
  registerDocsPage(app, "Junction partner API reference");
  return app;
}

/** The partner endpoints (each answers with an `x-request-id`, errors included: see createApp). */
export function registerPartnerRoutes(app: OpenAPIHono, deps: PartnerApiDeps): void {
  registerPartnerSecurity(app);
  registerPartnerTokensRoute(app, deps);
  registerPartnerQuoteRoute(app, deps);
}
