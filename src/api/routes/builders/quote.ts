import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { issueBuilderQuote } from "../../../builders/builder-quote.ts";
import { BUILDER_QUOTE_TIMES } from "../../../builders/limits.ts";
import { CHAIN_ID } from "../../../chain/chain.ts";
import { type ErrorIssue, InvalidRequestError, JunctionError } from "../../../errors/junction-error.ts";
import { recipientIssue } from "../../../routing/executor-calldata.ts";
import { builderAccess, chargeRequest } from "../../builder-access.ts";
import { BuilderQuoteQuerySchema, BuilderQuoteResponseSchema } from "../../schemas/builder-quote.ts";
import { routeBranches } from "../quote-response.ts";
import type { BuilderApiDeps } from "./builder-api-deps.ts";
import { BUILDER_ERROR_RESPONSES, BUILDER_SECURITY } from "./builder-openapi.ts";

/** `GET /api/v2/builders/quote` (scope `quote`, activated builder ID): an attributed quote. */
export function registerBuilderQuoteRoute(app: OpenAPIHono, deps: BuilderApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/api/v2/builders/quote",
    tags: ["Builder"],
    summary: "Attributed quote with separate service and builder fees",
    description:
      "Scope `quote`; the key's workspace must have an activated builder ID. Runs the same comparison as the public quote, priced with the fees the registry states at the quote block, and saves the quote (with the exact transaction a swap preparation returns). Counts against the workspace's builder-quote quota (free plan: 10 per minute across the workspace's keys) once the request is valid and admitted: a request refused as invalid (400) or for service capacity (429 BUSY) spends nothing. `chainId` may be given and must be 4663 (else 400 UNSUPPORTED_CHAIN); the chain is selected automatically.",
    security: BUILDER_SECURITY,
    middleware: [builderAccess(deps.db, "quote")] as const,
    request: { query: BuilderQuoteQuerySchema },
    responses: {
      200: {
        description: "The attributed quote",
        content: { "application/json": { schema: BuilderQuoteResponseSchema } },
      },
      ...BUILDER_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const principal = c.get("principal");
    if (!principal.activated)
      throw new JunctionError("FORBIDDEN", "the workspace's builder ID is not activated on chain");
    const query = c.req.valid("query");
    const builderCode = query.builderCode ?? principal.builderCode;
    if (!builderCode)
      throw new InvalidRequestError([
        { path: "builderCode", message: "required: the workspace has no builder code" },
      ]);
    const tokenIn = query.tokenIn as Address;
    const tokenOut = query.tokenOut as Address;
    const recipient = (query.recipient ?? query.payer) as Address;
    // In AMOUNT_IN: the query schema checked it (routing/limits.ts).
    const amountIn = BigInt(query.amountIn);
    const issues: ErrorIssue[] = [];
    if (tokenIn === tokenOut) issues.push({ path: "tokenOut", message: "must differ from tokenIn" });
    const payerZero = BigInt(query.payer) === 0n;
    if (payerZero) issues.push({ path: "payer", message: "must not be the zero address" });
    // Without `recipient` the payer receives: the field that named it is the one refused (once).
    const recipientProblem = recipientIssue(recipient, deps.deployment.contracts.executor);
    if (recipientProblem && (query.recipient || !payerZero))
      issues.push({ path: query.recipient ? "recipient" : "payer", message: recipientProblem });
    if (issues.length) throw new InvalidRequestError(issues);

    const request = {
      tokenIn,
      tokenOut,
      amountIn,
      payer: query.payer as Address,
      recipient,
      slippageBps: query.slippageBps ? Number(query.slippageBps) : BUILDER_QUOTE_TIMES.defaultSlippageBps,
      builderCode,
      ...(query.builderFeeBps === undefined ? {} : { builderFeeBps: Number(query.builderFeeBps) }),
      ...(query.provider ? { provider: query.provider } : {}),
    };
    const admissionKey = `builder:${principal.keyId}:${JSON.stringify(request, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`;
    // Quota is spent only once the search is admitted: a 429 BUSY spends nothing. Identical concurrent
    // requests of one key share one search, and so one unit of quota.
    const quote = await deps.admission.run(admissionKey, async (signal) => {
      await chargeRequest(c);
      return issueBuilderQuote(
        {
          db: deps.db,
          client: deps.client,
          contracts: deps.deployment.contracts,
          fixtures: deps.fixtures,
          quote: deps.quote,
          now: deps.now,
        },
        principal,
        request,
        signal,
      );
    });
    const { result } = quote;
    const simulation = result.selected.simulation;
    return c.json(
      {
        quoteId: quote.quoteId,
        builderCode,
        chainId: CHAIN_ID,
        payer: request.payer,
        recipient,
        tokenIn,
        tokenOut,
        amountIn: amountIn.toString(),
        grossAmountOut: quote.grossAmountOut.toString(),
        routeFee: quote.routeFee.toString(),
        builderFee: quote.builderFee.toString(),
        amountOut: quote.amountOut.toString(),
        minimumAmountOut: quote.minimumAmountOut.toString(),
        priceImpactBps: quote.priceImpactBps,
        // Addresses are lowercase throughout the response.
        fees: { ...quote.fees, builderRecipient: quote.fees.builderRecipient.toLowerCase() as Address },
        expiresAt: quote.expiresAt,
        deadline: quote.deadline,
        settlementAvailable: quote.settlementAvailable,
        policySource: quote.policySource,
        registry: deps.deployment.contracts.builderRegistry.toLowerCase(),
        provider: result.selected.provider,
        block: { number: result.block.number.toString(), hash: result.block.hash },
        execution: {
          status: simulation.status === "simulated" ? ("simulated" as const) : ("unverified" as const),
          gas: simulation.status === "simulated" ? simulation.gas.toString() : null,
          gasPrice: result.gasPrice.toString(),
        },
        routes: routeBranches(result.selected),
        warnings: quote.warnings,
      },
      200,
    );
  });
}
