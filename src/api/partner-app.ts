import type { OpenAPIHono } from "@hono/zod-openapi";
import { createApp } from "./create-app.ts";
import { registerHealthRoute } from "./routes/health.ts";

export type PartnerAppDeps = { latestBlock: () => Promise<bigint>; logError: (error: unknown) => void };

/** The app behind {partner_url}, on its own listener (docs/rules.md, surfaces). */
export function createPartnerApp(deps: PartnerAppDeps): OpenAPIHono {
  const app = createApp(deps.logError);
  registerHealthRoute(app, deps.latestBlock);
  return app;
}
