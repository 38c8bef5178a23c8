import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Address } from "viem";
import { InvalidRequestError, JunctionError } from "../../../errors/junction-error.ts";
import { type PartnerQuoteRequest, quotePartner } from "../../../partners/partner-quote.ts";
import {
  PartnerQuoteQuerySchema,
  PartnerQuoteResponseSchema,
  RequestIdHeaderSchema,
} from "../../schemas/partner-quote.ts";
import type { PartnerApiDeps } from "./partner-api-deps.ts";
import { PARTNER_ERROR_RESPONSES, PARTNER_SECURITY } from "./partner-openapi.ts";
import { toPartnerQuoteResponse } from "./quote-response.ts";

/** The query parameters that shape a transaction: a key with swap permission only (docs/rules.md, auth rule 7). */
const SWAP_PARAMETERS = ["recipient", "slippageBps", "minOut", "deadline"] as const;

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
      'Failing to find or build a swap is 200 with `ok: false` and an `error` from a closed list; bad input is 400, keys 401/403, limits 429. Capacity: 4 concurrent and 60 admissions per minute per process for the partner API (429 BUSY with Retry-After), 25 s deadline (`error: "timeout"`).',
    ].join("\n\n"),
    security: PARTNER_SECURITY,
    middleware: [deps.gate.access] as const,
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
    const partner = c.get("partner");
    const used = SWAP_PARAMETERS.filter((name) => query[name] !== undefined);
    if (used.length > 0 && !partner.swap)
      throw new JunctionError("FORBIDDEN", `${used.join(", ")} need a partner key with swap permission`);
    const terms = used.filter((name) => name !== "recipient");
    if (terms.length > 0 && query.recipient === undefined)
      throw new InvalidRequestError(
        terms.map((path) => ({ path, message: "shapes the transaction: needs recipient" })),
      );
    const lower = (address: string) => address.toLowerCase() as Address;
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
    const quote = await quotePartner(
      {
        quote: deps.quote,
        admission: deps.admission,
        client: deps.client,
        contracts: deps.deployment.contracts,
        fixtures: deps.fixtures,
        now: deps.now,
      },
      request,
      { caller: partner.keyId, admitted: () => deps.gate.charge(c) },
    );
    return c.json(toPartnerQuoteResponse(c.get("requestId"), quote), 200);
  });
}
