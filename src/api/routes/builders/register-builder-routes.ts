import type { OpenAPIHono } from "@hono/zod-openapi";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { registerBuilderSecurity } from "./builder-openapi.ts";
import { registerHistoryRoute } from "./history.ts";

/** Mounts the builder API (`/api/v2/builders/*`, SPEC "Builder API") on the {base_url} app. */
export function registerBuilderRoutes(app: OpenAPIHono, deps: BuilderApiDeps): void {
  registerBuilderSecurity(app);
  registerHistoryRoute(app, deps);
  void deps;
}
