import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { BusyError, type createAdmission, QuoteTimeoutError } from "../../quote/admission.ts";
import { QuoteError, type QuoteRequest, type QuoteResult } from "../../quote/quote-types.ts";
import { ApiError } from "../errors.ts";
import { errorResponse } from "../schemas/error.ts";
import { QuoteQuerySchema, QuoteResponseSchema } from "../schemas/quote.ts";
import { toQuoteResponse } from "./quote-response.ts";

export type QuoteRouteDeps = {
  quote: (request: QuoteRequest, signal: AbortSignal) => Promise<QuoteResult>;
  admission: ReturnType<typeof createAdmission>;
};

const MAX_UINT256 = 2n ** 256n - 1n;
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
      content: { "application/json": { schema: QuoteResponseSchema } },
    },
    400: errorResponse("INVALID_REQUEST, UNSUPPORTED_CHAIN or IDENTICAL_TOKENS"),
    409: errorResponse("BLOCK_REORGED: the quote block was reorged during assessment; ask again"),
    422: errorResponse("UNKNOWN_TOKEN, NO_ROUTE, NO_EXECUTABLE_ROUTE or PROVIDER_DISABLED"),
    429: errorResponse(
      "BUSY: honour the Retry-After header (2 for concurrency, the seconds left in the minute otherwise)",
    ),
    503: errorResponse(
      "QUOTE_TIMEOUT (25 s deadline) or UPSTREAM_UNAVAILABLE (the chain node did not answer)",
    ),
  },
});

/** `GET /api/v2/quote` (docs/rules.md, public rule 1). */
export function registerQuoteRoute(app: OpenAPIHono, deps: QuoteRouteDeps): void {
  app.openapi(quoteRoute, async (c) => {
    const query = c.req.valid("query");
    if (query.chainId !== "4663") throw new ApiError("UNSUPPORTED_CHAIN", "only chain 4663 is supported");
    if (query.tokenIn.toLowerCase() === query.tokenOut.toLowerCase()) {
      throw new ApiError("IDENTICAL_TOKENS", "tokenIn and tokenOut must differ");
    }
    const amountIn = BigInt(query.amountIn);
    if (amountIn === 0n || amountIn > MAX_UINT256) {
      throw new ApiError("INVALID_REQUEST", "the request is invalid", [
        { path: "amountIn", message: "must be between 1 and 2^256 - 1" },
      ]);
    }
    const request: QuoteRequest = {
      tokenIn: query.tokenIn.toLowerCase() as `0x${string}`,
      tokenOut: query.tokenOut.toLowerCase() as `0x${string}`,
      amountIn,
      ...(query.provider ? { provider: query.provider } : {}),
    };
    const key = `${request.tokenIn}:${request.tokenOut}:${amountIn}:${request.provider ?? "*"}`;
    try {
      const result = await deps.admission.run(key, (signal) => deps.quote(request, signal));
      return c.json(toQuoteResponse(result), 200);
    } catch (error) {
      throw toApiError(error);
    }
  });
}

function toApiError(error: unknown): unknown {
  if (error instanceof BusyError) {
    return new ApiError("BUSY", error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
  }
  if (error instanceof QuoteTimeoutError) return new ApiError("QUOTE_TIMEOUT", error.message);
  if (error instanceof QuoteError) return new ApiError(error.code, error.message);
  return error;
}
