import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { SWAP_PARAMETERS } from "../../../auth/partner-keys.ts";
import { InvalidRequestError } from "../../../errors/junction-error.ts";
import {
  type PartnerQuote,
  type PartnerQuoteRequest,
  quotePartner,
} from "../../../partners/partner-quote.ts";
import { chargePartnerRequest, partnerAccess, requireSwapPermission } from "../../partner-access.ts";
import { requestIdOf } from "../../request-id.ts";
import {
  PartnerQuoteQuerySchema,
  PartnerQuoteResponseSchema,
  RequestIdHeaderSchema,
} from "../../schemas/partner-quote.ts";
import type { PartnerApiDeps } from "./partner-api-deps.ts";
import { PARTNER_ERROR_RESPONSES, PARTNER_SECURITY } from "./partner-openapi.ts";
import { partnerQuoteFailure } from "./quote-failure.ts";
import { toPartnerQuoteResponse } from "./quote-response.ts";

/** `GET {partner_url}/quote` (docs/rules.md, partner quote rules 1-8; errors: partner). */
export function registerPartnerQuoteRoute(app: OpenAPIHono, deps: PartnerApiDeps): void {
  const route = createRoute({
    method: "get",
    path: "/quote",
    tags: ["Partner"],
    summary: "Quote an exact input; with recipient, also the transaction, run before it is returned",
    description: [
      "Runs the same comparison as the public quote. Without `recipient` the answer is a quote; with it (a key with swap permission), also `tx` and `swap`: the exact transaction for this recipient, minimum and deadline, returned only after it ran through the executor at the quote block (from a synthetic payer with exact balance and allowance) and delivered exactly `swap.netOut` to the recipient.",
      "`amountOut` is the output BEFORE the service fee; the public `GET /api/v2/quote` reports its `amountOut` after it. `swap.netOut` = `swap.amountOut` − `swap.fee` is what the recipient receives.",
      'Failing to find or build a swap is 200 with `ok: false` and an `error` from a closed list; bad input is 400, keys 401/403, limits 429. Each quote spends one of the 60 quotes the key may make a minute once valid and admitted (429 RATE_LIMITED with Retry-After past it). Capacity: 4 concurrent and 60 admissions per minute per process for the partner API (429 BUSY with Retry-After), 25 s deadline (`error: "timeout"`).',
    ].join("\n\n"),
    security: PARTNER_SECURITY,
    middleware: [partnerAccess(deps.db, "quote")] as const,
    request: { query: PartnerQuoteQuerySchema, headers: RequestIdHeaderSchema },
    responses: {
      200: {
        description: "The quote (`ok: true`), or why no swap could be found or built (`ok: false`)",
        headers: { "x-request-id": { description: "The request's trace id", schema: { type: "string" } } },
        content: { "application/json": { schema: PartnerQuoteResponseSchema } },
      },
      ...PARTNER_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    requireSwapPermission(c, Object.keys(query));
    const terms = SWAP_PARAMETERS.filter((name) => name !== "recipient" && query[name] !== undefined);
    if (terms.length > 0 && query.recipient === undefined)
      throw new InvalidRequestError(
        terms.map((path) => ({ path, message: "shapes the transaction: needs recipient" })),
      );
    // Addresses arrive lowercased by the boundary schema (common-patterns.ts).
    const lower = (address: string) => address as Address;
    const request: PartnerQuoteRequest = {
      tokenIn: lower(query.in),
      tokenOut: lower(query.out),
      amountIn: BigInt(query.amount),
      ...(query.recipient
        ? {
            swap: {
              recipient: lower(query.recipient),
              ...(query.slippageBps === undefined ? {} : { slippageBps: Number(query.slippageBps) }),
              ...(query.minOut === undefined ? {} : { minOut: BigInt(query.minOut) }),
              ...(query.deadline === undefined ? {} : { deadline: Number(query.deadline) }),
            },
          }
        : {}),
    };
    let quote: PartnerQuote;
    try {
      quote = await quotePartner(
        {
          quote: deps.quote,
          admission: deps.admission,
          client: deps.client,
          contracts: deps.deployment.contracts,
          fixtures: deps.fixtures,
          now: deps.now,
        },
        request,
        { caller: c.get("partner").keyId, admitted: () => chargePartnerRequest(c) },
      );
    } catch (error) {
      const failure = partnerQuoteFailure(request, error);
      if (!failure) throw error;
      quote = failure;
    }
    return c.json(toPartnerQuoteResponse(requestIdOf(c), quote), 200);
  });
}
