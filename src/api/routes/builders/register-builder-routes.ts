import type { OpenAPIHono } from "@hono/zod-openapi";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { builderErrors } from "./builder-errors.ts";
import { registerBuilderSecurity } from "./builder-openapi.ts";
import { registerEventsRoute } from "./events.ts";
import { registerHistoryRoute } from "./history.ts";
import { registerIntegrationRoute } from "./integration.ts";
import { registerProfileRoute } from "./profile.ts";
import { registerBuilderQuoteRoute } from "./quote.ts";
import { registerReceiptRoute } from "./receipts.ts";
import { registerRegistryTransactionRoute } from "./registry-transactions.ts";
import { registerSwapRoutes } from "./swaps.ts";
import { registerTokensRoute } from "./tokens.ts";
import { registerUsageRoute } from "./usage.ts";

/** Mounts the builder API (`/api/v2/builders/*`, docs/rules.md, surfaces) on the {base_url} app. */
export function registerBuilderRoutes(app: OpenAPIHono, deps: BuilderApiDeps): void {
  app.use("/api/v2/builders/*", builderErrors);
  registerBuilderSecurity(app);
  registerBuilderQuoteRoute(app, deps);
  registerSwapRoutes(app, deps);
  registerReceiptRoute(app, deps);
  registerRegistryTransactionRoute(app, deps);
  registerHistoryRoute(app, deps);
  if (deps.events) registerEventsRoute(app, { ...deps, events: deps.events });
  registerIntegrationRoute(app, deps);
  registerProfileRoute(app, deps);
  registerTokensRoute(app, deps);
  registerUsageRoute(app, deps);
}
