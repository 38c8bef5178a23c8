import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { PLANS, planOf, type WorkspacePlanName } from "../../../auth/plans.ts";
import { workspaceUsage } from "../../../auth/workspace-usage.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { BuilderUsageQuerySchema, BuilderUsageSchema } from "../../schemas/builder-usage.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** `GET /api/v2/builders/usage` (scope `tokens`, drawing on the tokens quota): the workspace's limits and usage. */
export function registerUsageRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/usage",
    tags: ["Builder"],
    summary: "The workspace's plan limits and what it has spent in the current windows",
    description:
      "Scope `tokens`; shares the tokens quota, and this request is already counted in `usage.tokens` and `usage.hourly`. Counters are shared by every key of the workspace; per-minute windows align on whole UTC minutes and the hourly allowance on whole UTC hours of the database clock.",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "tokens")] as const,
    request: { query: BuilderUsageQuerySchema },
    responses: {
      200: {
        description: "Limits, usage and window ends",
        content: { "application/json": { schema: BuilderUsageSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
    },
  });

  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    await chargeRequest(c);
    const { name, usage, windows } = await workspaceUsage(deps.db, principal.workspaceId);
    const plan = principal.plan in PLANS ? (principal.plan as WorkspacePlanName) : "free";
    const limits = planOf(plan);
    return c.json(
      {
        workspace: {
          id: principal.workspaceId,
          name,
          builderCode: principal.builderCode,
          plan,
          activated: principal.activated,
        },
        limits: {
          quotesPerMinute: limits.quotesPerMinute,
          receiptsPerMinute: limits.receiptsPerMinute,
          tokensPerMinute: limits.tokensPerMinute,
          requestsPerHour: limits.requestsPerHour,
        },
        usage,
        windows,
      },
      200,
    );
  });
}
