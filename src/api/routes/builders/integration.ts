import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import type { z } from "zod";
import { allocateMultiSwap, type MultiSwapPlan, toMultiSwapPlan } from "../../../builders/multi-plan.ts";
import { readRegistryBuilder } from "../../../builders/registry-profile.ts";
import { echo, InvalidRequestError, JunctionError } from "../../../errors/junction-error.ts";
import { recipientIssue } from "../../../routing/executor-calldata.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import {
  DEFAULT_SLIPPAGE_BPS,
  IntegrationBodySchema,
  MultiSwapPlanSchema,
} from "../../schemas/builder-integration.ts";
import { errorResponse } from "../../schemas/error.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BODY_LIMIT_RESPONSES, BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

const ACTION = "multi-plan";
/**
 * Zaps: actions that would swap and then deposit the output somewhere (docs/rules.md, errors: builder).
 * They are not enabled (`GET /api/v2/capabilities`: `zaps: false`, `deposits: false`) and are answered
 * 503 ZAPS_DISABLED, whatever their input.
 */
export const ZAP_ACTIONS = ["zap", "zap-in", "deposit", "swap-and-deposit"] as const;
/** Addresses arrive lowercased by the boundary schema (common-patterns.ts). */
const lower = (address: string) => address as Address;

/** `POST /api/v2/builders/integration` (scope `quote`, drawing on the quote quota): plan a multi-swap. */
export function registerIntegrationRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "post",
    path: "/api/v2/builders/integration",
    tags: ["Builder"],
    summary: "Plan a multi-swap: the builder quotes to request, one per leg",
    description: [
      "Scope `quote`; shares the builder-quote quota. Action `multi-plan` splits each input across up to four outputs by weight (weights total 10000 bps) and returns the legs to run one after another; apart from `chainId`, each leg is exactly the query of one `GET /api/v2/builders/quote`. Not atomic: legs completed before a failing one stay completed. Nothing is saved and no price is quoted.",
      `Defaults: recipient = payer; slippageBps = ${DEFAULT_SLIPPAGE_BPS}; builderCode = the key's workspace code; builderFeeBps = the builder's registered default fee (0 when the code is unregistered or suspended, where the quote charges no builder fee either), read from the BuilderRegistry at the latest block. A builderFeeBps above a registered, enabled builder's cap is 400 BUILDER_FEE_ABOVE_CAP, as on the builder quote.`,
      "An output whose token is the input's own needs no swap: that share stays with the payer and gets no leg. Addresses in the plan are lowercase.",
    ].join("\n\n"),
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "quote")] as const,
    request: {
      body: { required: true, content: { "application/json": { schema: IntegrationBodySchema } } },
    },
    responses: {
      200: {
        description: "The multi-swap plan",
        content: { "application/json": { schema: MultiSwapPlanSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
      ...BODY_LIMIT_RESPONSES,
      503: errorResponse(
        "ZAPS_DISABLED (action `zap`, `zap-in`, `deposit` or `swap-and-deposit`: zaps are not enabled, see /api/v2/capabilities) or UPSTREAM_UNAVAILABLE",
      ),
      400: errorResponse(
        "UNSUPPORTED_ACTION (action other than `multi-plan` or a zap action), INVALID_REQUEST (the rejected inputs in `issues`: an unknown property anywhere, a bad pattern or range, weights not totalling 10000, a repeated token, a recipient that is the executor), UNSUPPORTED_TERMS (nothing to swap, a leg that would move 0 units) or BUILDER_FEE_ABOVE_CAP (builderFeeBps above a registered builder's on-chain cap, as on the builder quote)",
      ),
    },
  });

  app.openapi(
    route,
    async (c) => {
      const { input } = c.req.valid("json");
      const builderCode = input.builderCode ?? c.get("principal").builderCode;
      if (!builderCode)
        throw new InvalidRequestError([
          { path: "input.builderCode", message: "required: the key's workspace has no builder code" },
        ]);
      // Every leg's recipient: refused here, as its builder quote would refuse it.
      const recipient = lower(input.recipient ?? input.payer);
      const recipientProblem = recipientIssue(recipient, deps.deployment.contracts.executor);
      if (recipientProblem)
        throw new InvalidRequestError([
          { path: input.recipient ? "input.recipient" : "input.payer", message: recipientProblem },
        ]);
      const swaps = allocateMultiSwap({
        inputs: input.inputs.map((i) => ({ token: lower(i.token), amount: BigInt(i.amount) })),
        outputs: input.outputs.map((o) => ({ token: lower(o.token), weightBps: o.weightBps })),
      });
      await chargeRequest(c);
      const registry = deps.deployment.contracts.builderRegistry;
      const { builder } = await readRegistryBuilder(deps.client, registry, builderCode);
      const standing = builder?.enabled ? builder : null;
      const builderFeeBps = input.builderFeeBps ?? standing?.builderFeeBps ?? 0;
      if (standing && builderFeeBps > standing.maxBuilderFeeBps)
        throw new JunctionError(
          "BUILDER_FEE_ABOVE_CAP",
          `builderFeeBps ${builderFeeBps} exceeds the builder's cap`,
          {
            issues: [
              {
                path: "input.builderFeeBps",
                message: `at most ${standing.maxBuilderFeeBps} for ${builderCode}`,
              },
            ],
          },
        );
      const payer = lower(input.payer);
      const plan = toMultiSwapPlan(swaps, {
        payer,
        recipient,
        builderCode,
        builderFeeBps,
        slippageBps: input.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
      });
      return c.json(toResponse(plan), 200);
    },
    (result) => {
      if (result.success) return undefined;
      // The validator hands its hook the body it saw as `data` ({} when there was none, or no JSON content
      // type), though the hook's type omits it; re-reading the body would throw on an empty one.
      throw integrationBodyError((result as { data?: unknown }).data, result.error);
    },
  );
}

/**
 * The error for a body that failed validation: a zap action is 503 ZAPS_DISABLED and any other `action`
 * string than `multi-plan` is 400 UNSUPPORTED_ACTION, whatever else is wrong (the rest means nothing to
 * this endpoint); otherwise 400 INVALID_REQUEST listing every issue, an unknown property named by its full
 * path. None of them spends quota.
 */
export function integrationBodyError(body: unknown, error: z.ZodError): JunctionError {
  const action =
    typeof body === "object" && body !== null ? (body as { action?: unknown }).action : undefined;
  if (typeof action === "string" && (ZAP_ACTIONS as readonly string[]).includes(action))
    return new JunctionError("ZAPS_DISABLED", `zaps are not enabled: action ${JSON.stringify(action)}`);
  if (typeof action === "string" && action !== ACTION)
    return new JunctionError(
      "UNSUPPORTED_ACTION",
      `unsupported action ${JSON.stringify(echo(action))}: only ${ACTION}`,
    );
  return new InvalidRequestError(
    error.issues.flatMap((issue) => {
      const path = issue.path.join(".");
      if (issue.code === "unrecognized_keys")
        return issue.keys.map((key) => ({
          path: path ? `${path}.${key}` : key,
          message: "unknown property",
        }));
      return [{ path, message: issue.message }];
    }),
  );
}

function toResponse(plan: MultiSwapPlan) {
  return { ...plan, legs: plan.legs.map((leg) => ({ ...leg, amountIn: leg.amountIn.toString() })) };
}
