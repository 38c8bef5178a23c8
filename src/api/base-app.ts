import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { cors } from "hono/cors";
import { API_VERSION } from "./api-version.ts";
import { createApp } from "./create-app.ts";
import type { BuilderApiDeps } from "./routes/builders/builder-api-deps.ts";
import { registerBuilderRoutes } from "./routes/builders/register-builder-routes.ts";
import { type ConfigDeps, registerConfigRoutes } from "./routes/config.ts";
import { registerHealthRoute } from "./routes/health.ts";
import { type QuoteRouteDeps, registerQuoteRoute } from "./routes/quote.ts";

export type BaseAppDeps = ConfigDeps &
  QuoteRouteDeps & {
    latestBlock: () => Promise<bigint>;
    logError: (error: unknown) => void;
    /** The builder API; absent in tests of the public surface alone. */
    builders?: BuilderApiDeps;
  };

/** The keyless public paths a browser may read cross-origin (docs/rules.md, auth rule 1). */
const PUBLIC_PATHS = ["/api/v2/quote", "/api/v2/config", "/api/v2/capabilities", "/healthz", "/openapi.json"];

/** The app behind {base_url}: public routing and data, builder API, transfer estimates, the API reference. */
export function createBaseApp(deps: BaseAppDeps): OpenAPIHono {
  const app = createApp(deps.logError);
  // Keyless public GETs may be called from any web page; keyed surfaces never answer a browser preflight
  // (their keys belong on integrators' backends), so they get no CORS headers at all.
  for (const path of PUBLIC_PATHS) app.use(path, cors({ origin: "*", allowMethods: ["GET"], maxAge: 600 }));
  registerHealthRoute(app, deps.latestBlock);
  registerConfigRoutes(app, deps);
  registerQuoteRoute(app, deps);
  if (deps.builders) registerBuilderRoutes(app, deps.builders);
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Junction API",
      version: API_VERSION,
      description:
        "Swap routing, builder attribution and transfer estimates on chain 4663. The service compares swap paths, simulates every candidate and returns quotes and unsigned transactions; it never signs or submits.",
    },
    servers: [{ url: "/", description: "{base_url}" }],
  });
  app.get("/docs", Scalar({ url: "/openapi.json", pageTitle: "Junction API reference" }));
  return app;
}
