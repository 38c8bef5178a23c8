import { BusyError, QuoteTimeoutError } from "../../../quote/admission.ts";
import { QuoteError } from "../../../quote/quote-types.ts";
import { ApiError } from "../../errors.ts";

/**
 * Quote failures on builder endpoints, in the builder status table (docs/rules.md, errors: builder): terms
 * nothing can serve are 400 UNSUPPORTED_TERMS (the message says why), capacity is 429 BUSY, the node or a
 * reorg 503.
 */
export function builderQuoteError(error: unknown): unknown {
  if (error instanceof BusyError)
    return new ApiError("BUSY", error.message, undefined, { "Retry-After": String(error.retryAfterSeconds) });
  if (error instanceof QuoteTimeoutError) return new ApiError("QUOTE_TIMEOUT", error.message);
  if (!(error instanceof QuoteError)) return error;
  switch (error.code) {
    case "BUILDER_FEE_ABOVE_CAP":
      return new ApiError("BUILDER_FEE_ABOVE_CAP", error.message);
    case "UPSTREAM_UNAVAILABLE":
      return new ApiError("UPSTREAM_UNAVAILABLE", error.message);
    case "BLOCK_REORGED":
      return new ApiError("UPSTREAM_UNAVAILABLE", "the quote block was reorged during assessment; ask again");
    default:
      return new ApiError("UNSUPPORTED_TERMS", `${error.message} (${error.code})`);
  }
}
