import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { preparationStatus, prepareSwap } from "../../../builders/swap-preparation.ts";
import { JunctionError } from "../../../errors/junction-error.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import {
  IdempotencyKeyHeader,
  PreparationStatusSchema,
  PreparedSwapSchema,
  SwapRequestSchema,
} from "../../schemas/builder-swap.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BODY_LIMIT_RESPONSES, BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/**
 * Swap preparation (scope `swap`; docs/rules.md, ours: swap preparation): `POST /api/v2/builders/swaps` turns
 * a builder quote into its unsigned, simulated executor transaction;
 * `GET /api/v2/builders/swaps/{idempotencyKey}` reads a preparation's saved status.
 */
export function registerSwapRoutes(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const prepare = createRoute({
    method: "post",
    path: "/api/v2/builders/swaps",
    tags: ["Builder"],
    summary: "Prepare the unsigned swap transaction of a builder quote",
    description:
      "Scope `swap`. Simulates the quote's exact transaction from the payer at the latest block (input balance and exact allowance set by state override) and returns it with what must be approved (spender = executor). Idempotent under the `Idempotency-Key` header: a repeat replays the saved answer byte for byte; the status is saved (see GET). Use the same key for receipts.",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "swap")] as const,
    request: {
      headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
      body: { required: true, content: { "application/json": { schema: SwapRequestSchema } } },
    },
    responses: {
      200: {
        description: "The prepared swap (also the replay of a saved one)",
        content: { "application/json": { schema: PreparedSwapSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      ...BODY_LIMIT_RESPONSES,
      404: errorResponse("PLAN_NOT_FOUND: no quote with this id for this key"),
      409: errorResponse(
        "IDEMPOTENCY_CONFLICT (key reused with another body), PLAN_EXPIRED (quote past expiresAt: quote again) or PLAN_NOT_READY (a local-preview quote, or the preparation under this key is still running: one cut off by a crash is taken over by the same request 60 s after it began)",
      ),
      503: errorResponse(
        "PREPARATION_FAILED (the failure is saved under the Idempotency-Key: check GET before a new request) or UPSTREAM_UNAVAILABLE",
      ),
    },
  });
  app.openapi(prepare, async (c) => {
    const principal = c.get("principal");
    const idempotencyKey = c.req.valid("header")["idempotency-key"];
    const { quoteId } = c.req.valid("json");
    await chargeRequest(c);
    const outcome = await prepareSwap(
      {
        db: deps.db,
        client: deps.client,
        contracts: deps.deployment.contracts,
        fixtures: deps.fixtures,
        now: deps.now,
      },
      principal,
      { quoteId, idempotencyKey },
    );
    if (outcome.status === "failed")
      throw new JunctionError(
        "PREPARATION_FAILED",
        `swap preparation failed: ${outcome.failure}; the status is saved under this Idempotency-Key`,
      );
    if (outcome.status !== "ready")
      throw new JunctionError("PLAN_NOT_READY", "the preparation is still running");
    return c.json(outcome.swap, 200);
  });

  const status = createRoute({
    method: "get",
    path: "/api/v2/builders/swaps/{idempotencyKey}",
    tags: ["Builder"],
    summary: "Saved status of a swap preparation",
    description: "Scope `swap`. `pending`, `ready` (with the prepared swap) or `failed` (with the reason).",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "swap")] as const,
    request: { params: z.object({ idempotencyKey: IdempotencyKeyHeader }) },
    responses: {
      200: {
        description: "The saved status",
        content: { "application/json": { schema: PreparationStatusSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      404: errorResponse("PLAN_NOT_FOUND: no preparation under this Idempotency-Key for this key"),
    },
  });
  app.openapi(status, async (c) => {
    const principal = c.get("principal");
    const { idempotencyKey } = c.req.valid("param");
    await chargeRequest(c);
    const saved = await preparationStatus(deps.db, principal.keyId, idempotencyKey);
    if (!saved)
      throw new JunctionError("PLAN_NOT_FOUND", "no preparation under this Idempotency-Key for this key");
    return c.json(saved, 200);
  });
}
