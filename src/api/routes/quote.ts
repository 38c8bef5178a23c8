import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { JunctionError } from "../../errors/junction-error.ts";
import type { createAdmission } from "../../quote/admission.ts";
import type { QuoteRequest, QuoteResult } from "../../quote/quote-types.ts";
import { errorResponse } from "../schemas/error.ts";
import { QuoteQuerySchema, QuoteResponseSchema } from "../schemas/quote.ts";
import { serverTiming } from "../server-timing.ts";
import { toQuoteResponse } from "./quote-response.ts";

export type QuoteRouteDeps = {
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  admission: ReturnType<typeof createAdmission>;
};

const quoteRoute = createRoute({
  method: "get",
  path: "/api/v2/quote",
  tags: ["Public"],
  summary: "Compare swap paths and return the best assessed quote",
  description:
    "Keyless. Compares verified direct pools (and enabled third-party providers) for an exact input, simulates every deduplicated candidate's complete calldata at one block, and returns the selected candidate with the full comparison. `amountOut` is the original quote; `execution.amountOut` the assessed output. No calldata is returned. Limits: 4 concurrent and 60 admissions per minute per process (429 BUSY with Retry-After), 25 s deadline (503 QUOTE_TIMEOUT).",
  request: { query: QuoteQuerySchema },
  responses: {
    200: {
      description: "The selected quote",
      headers: {
        "Server-Timing": {
          description:
            'Milliseconds per pipeline stage: `pin` (the block), `state` (pool reads, widening included), `search`, `providers` (in parallel with state and search), `simulate`, `rank`; then what the quote asked of the chain node: `rpc-calls` (JSON-RPC calls sent), `rpc-requests` (the HTTP requests that carried them; calls made together travel as one batch) and `rpc-round-trips` (busy periods; calls in parallel share one), each in `desc`, and for a quote of more than one round trip `rpc-round-trip-openers` (the method that opened each, space-separated); e.g. `pin;dur=0.0, state;dur=2.4, search;dur=8.0, providers;dur=0.0, simulate;dur=9.2, rank;dur=0.1, rpc-calls;desc="6", rpc-requests;desc="1", rpc-round-trips;desc="1"`.',
          schema: { type: "string" },
        },
      },
      content: { "application/json": { schema: QuoteResponseSchema } },
    },
    400: errorResponse("INVALID_REQUEST, UNSUPPORTED_CHAIN (chainId other than 4663) or IDENTICAL_TOKENS"),
    409: errorResponse("BLOCK_REORGED: the quote block was reorged during assessment; ask again"),
    422: errorResponse("UNKNOWN_TOKEN, NO_ROUTE, NO_EXECUTABLE_ROUTE or PROVIDER_DISABLED"),
    429: errorResponse(
      "BUSY: honour the Retry-After header (2 for concurrency, the seconds left in the minute otherwise)",
    ),
    503: errorResponse(
      "QUOTE_TIMEOUT (25 s deadline) or UPSTREAM_UNAVAILABLE with a `reason`: `rpc-unavailable` (the chain node did not answer), `gas-price-unavailable` (no positive gas price: there is no zero-price fallback), `block-pending` (the node's latest block was still pending)",
    ),
  },
});

/** `GET /api/v2/quote` (docs/rules.md, public rule 1). */
export function registerQuoteRoute(app: OpenAPIHono, deps: QuoteRouteDeps): void {
  app.openapi(quoteRoute, async (c) => {
    const query = c.req.valid("query");
    if (query.tokenIn === query.tokenOut) {
      throw new JunctionError("IDENTICAL_TOKENS", "tokenIn and tokenOut must differ");
    }
    // In AMOUNT_IN: the query schema checked it (routing/limits.ts).
    const amountIn = BigInt(query.amountIn);
    const request: QuoteRequest = {
      tokenIn: query.tokenIn as `0x${string}`,
      tokenOut: query.tokenOut as `0x${string}`,
      amountIn,
      ...(query.provider ? { provider: query.provider } : {}),
    };
    const key = `${request.tokenIn}:${request.tokenOut}:${amountIn}:${request.provider ?? "*"}`;
    const result = await deps.admission.run(key, (signal) => deps.quote(request, signal));
    c.header("Server-Timing", serverTiming(result.timings, result.rpc));
    return c.json(toQuoteResponse(result), 200);
  });
}
