import { JunctionError } from "../../../errors/junction-error.ts";
import type {
  PartnerQuote,
  PartnerQuoteError,
  PartnerQuoteRequest,
} from "../../../partners/partner-quote.ts";

/**
 * The partner surface's one error mapping (docs/rules.md, errors: partner): what the comparison threw while
 * quoting, as the 200 `ok: false` answer its clients branch on. Undefined for what stays an error: bad input
 * (400), capacity (429 BUSY), bugs (500).
 */
export function partnerQuoteFailure(request: PartnerQuoteRequest, error: unknown): PartnerQuote | undefined {
  const failure = failureOf(error);
  if (!failure) return undefined;
  return {
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn,
    ok: false,
    error: failure,
  };
}

function failureOf(error: unknown): PartnerQuoteError | undefined {
  if (!(error instanceof JunctionError)) return undefined;
  switch (error.code) {
    case "UNKNOWN_TOKEN":
      return "unknown-token";
    case "NO_ROUTE":
      return "no-route";
    case "NO_EXECUTABLE_ROUTE":
      return error.reason === "token-transfer-fee" ? "token-transfer-fee" : "no-executable-route";
    case "BLOCK_REORGED":
      return "block-reorged";
    case "UPSTREAM_UNAVAILABLE":
      return "upstream-unavailable";
    case "QUOTE_TIMEOUT":
      return "timeout";
    default:
      return undefined;
  }
}
