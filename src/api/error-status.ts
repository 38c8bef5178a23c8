import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorCode } from "../errors/junction-error.ts";

/**
 * Each error code's one HTTP status: the only place statuses are decided (docs/rules.md, ours: error
 * body). Domain code throws a `JunctionError` with a code; the API's error handler answers with the status here.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  UNSUPPORTED_CHAIN: 400,
  IDENTICAL_TOKENS: 400,
  /** Builder API: terms no route or policy can serve (unknown token, no route, provider disabled). */
  UNSUPPORTED_TERMS: 400,
  /** Builder API: the builder fee asked for exceeds the builder's on-chain cap. */
  BUILDER_FEE_ABOVE_CAP: 400,
  /** Receipts: the transaction reverted, or does not settle this quote for this key. */
  RECEIPT_MISMATCH: 400,
  /** Builder API: an action the endpoint does not perform. */
  UNSUPPORTED_ACTION: 400,
  UNAUTHORIZED: 401,
  /** Builder API: the workspace's hourly allowance is spent; Retry-After says when it renews. */
  ALLOWANCE_EXHAUSTED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** Builder API: no quote or swap plan with this id for this key. */
  PLAN_NOT_FOUND: 404,
  /** Builder profile: the code is unknown or not registered on chain. */
  BUILDER_NOT_FOUND: 404,
  /** The request body is larger than the service accepts (64 KiB). */
  PAYLOAD_TOO_LARGE: 413,
  /** The request line and headers exceed 16 KiB (answered by the listener, before any route). */
  HEADERS_TOO_LARGE: 431,
  /** The headers did not arrive within 10 s, or the whole request within 30 s (answered by the listener). */
  REQUEST_TIMEOUT: 408,
  /** The Idempotency-Key was used with a different request, or its preparation is still running. */
  IDEMPOTENCY_CONFLICT: 409,
  /** The quote behind the plan has expired: request a new quote. */
  PLAN_EXPIRED: 409,
  /** The quote cannot be settled (no on-chain registry state applies), or its preparation is still running. */
  PLAN_NOT_READY: 409,
  /** History: the cursor's finalized snapshot is no longer canonical; restart pagination. */
  SNAPSHOT_NOT_CANONICAL: 409,
  /**
   * Receipts: the chain never saw the transaction and the quote's deadline passed over a minute ago (by the
   * chain's clock): it can no longer settle the quote; stop polling.
   */
  TRANSACTION_NOT_FOUND: 409,
  /** The pinned block stopped being canonical while the quote was assessed: ask again. */
  BLOCK_REORGED: 409,
  /** The token has no contract code on the chain. */
  UNKNOWN_TOKEN: 422,
  /** No verified pool path and no provider quote connects the pair. */
  NO_ROUTE: 422,
  /** Every candidate reverted when simulated. */
  NO_EXECUTABLE_ROUTE: 422,
  /** The requested provider is not enabled on this deployment. */
  PROVIDER_DISABLED: 422,
  /** Concurrency or rate admission refused; honour Retry-After. */
  BUSY: 429,
  /** Builder API: the workspace's per-minute quota for this endpoint is spent; honour Retry-After. */
  QUOTA_EXCEEDED: 429,
  /** Partner API: the key's per-minute rate for this endpoint is spent; honour Retry-After. */
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** The quote exceeded its 25-second deadline. */
  QUOTE_TIMEOUT: 503,
  /** The node could not give what the request needs; `reason` says which step (closed list). */
  UPSTREAM_UNAVAILABLE: 503,
  /** Swap preparation failed; its status is saved under the Idempotency-Key (check it before retrying). */
  PREPARATION_FAILED: 503,
  /** Builder profile: the registry is not commissioned. */
  REGISTRY_UNCOMMISSIONED: 503,
  /** Builder API: zaps (swap-and-deposit actions) are not enabled; see /api/v2/capabilities. */
  ZAPS_DISABLED: 503,
  /** Developer portal: another workspace holds this builder code. */
  CODE_TAKEN: 409,
  EVENT_ID_UNKNOWN: 409,
  /** The process is closing after its drain period; retry (through the load balancer, another process serves). */
  SHUTTING_DOWN: 503,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;
