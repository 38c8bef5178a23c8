import type { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import { API_VERSION } from "./api-version.ts";
import { createApp } from "./create-app.ts";
import { registerDocsPage } from "./docs-page.ts";
import type { ErrorLog } from "./errors.ts";
import { type Lifecycle, registerReadinessRoute } from "./lifecycle.ts";
import type { Observer } from "./observe.ts";
import type { BuilderApiDeps } from "./routes/builders/builder-api-deps.ts";
import { registerBuilderRoutes } from "./routes/builders/register-builder-routes.ts";
import { type ConfigDeps, registerConfigRoutes } from "./routes/config.ts";
import { registerHealthRoute } from "./routes/health.ts";
import { type PortalApiDeps, registerPortalApi } from "./routes/portal/portal-api.ts";
import { registerPortalPage } from "./routes/portal/portal-page.ts";
import { type QuoteRouteDeps, registerQuoteRoute } from "./routes/quote.ts";
import { registerTransferRoutes, type TransferApiDeps } from "./routes/transfers/routes.ts";

export type BaseAppDeps = ConfigDeps &
  QuoteRouteDeps & {
    latestBlock: () => Promise<bigint>;
    logError: ErrorLog;
    /** Sees every answered request (access log, metrics); absent in tests. */
    observer?: Observer;
    /** Draining and readiness (`GET /readyz`); absent in tests. */
    lifecycle?: Lifecycle;
    /** `GET /metrics` in the Prometheus text format; absent in tests. */
    metrics?: () => Promise<{ contentType: string; body: string }>;
    /** The builder API; absent in tests of the public surface alone. */
    builders?: BuilderApiDeps;
    /** Transfer estimates; absent in tests of the other surfaces. */
    transfers?: TransferApiDeps;
    /** The developer portal (`/portal`, `/portal/api`); absent in tests of the other surfaces. */
    portal?: PortalApiDeps;
  };

/** The keyless public paths a browser may read cross-origin (docs/rules.md, auth rule 1). */
const PUBLIC_PATHS = ["/api/v2/quote", "/api/v2/config", "/api/v2/capabilities", "/healthz", "/openapi.json"];

/** The app behind {base_url}: public routing and data, builder API, transfer estimates, the API reference. */
export function createBaseApp(deps: BaseAppDeps): OpenAPIHono {
  const app = createApp(deps.logError, {
    ...(deps.observer ? { observer: deps.observer } : {}),
    ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
  });
  // Keyless public GETs may be called from any web page; keyed surfaces never answer a browser preflight
  // (their keys belong on integrators' backends), so they get no CORS headers at all.
  for (const path of PUBLIC_PATHS) app.use(path, cors({ origin: "*", allowMethods: ["GET"], maxAge: 600 }));
  registerHealthRoute(app, deps.latestBlock);
  if (deps.lifecycle) registerReadinessRoute(app, deps.lifecycle);
  const { metrics } = deps;
  // For the operator's scraper, not in the OpenAPI document; restrict it at the load balancer if needed.
  if (metrics)
    app.get("/metrics", async (c) => {
      const { contentType, body } = await metrics();
      return c.body(body, 200, { "Content-Type": contentType });
    });
  registerConfigRoutes(app, deps);
  registerQuoteRoute(app, deps);
  if (deps.builders) registerBuilderRoutes(app, deps.builders);
  if (deps.transfers) registerTransferRoutes(app, deps.transfers);
  if (deps.portal) {
    registerPortalApi(app, deps.portal);
    registerPortalPage(app);
  }
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Junction API",
      version: API_VERSION,
      description:
        "Swap routing, builder attribution and transfer estimates on chain 4663. The service compares swap paths, simulates every candidate and returns quotes and unsigned transactions; it never signs or submits. A request the HTTP parser rejects (a malformed request line or header, an unknown method) is answered 400 `INVALID_REQUEST`, headers over 16 KiB 431 `HEADERS_TOO_LARGE`, a request that does not arrive within its time 408 `REQUEST_TIMEOUT`, each in the same error body and on a connection then closed; so is any answer given before the request body was read (e.g. 413 `PAYLOAD_TOO_LARGE`).",
    },
    servers: [{ url: "/", description: "{base_url}" }],
  });
  registerDocsPage(app, "Junction API reference");
  return app;
}
