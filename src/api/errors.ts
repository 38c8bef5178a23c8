import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The closed list of error codes the API returns, each with its one HTTP status. Every error response,
 * on every surface, is `{ "error": { "code", "message", "issues"? } }`: no stack, no remote body, no
 * credential, no calldata. New failure kinds get a code here, never a free-form 500.
 */
export const ERROR_CODES = {
  INVALID_REQUEST: 400,
  UNSUPPORTED_CHAIN: 400,
  IDENTICAL_TOKENS: 400,
  /** Builder API: terms no route or policy can serve (unknown token, no route, fee above the builder's cap). */
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
  /** The Idempotency-Key was used with a different request, or its preparation is still running. */
  IDEMPOTENCY_CONFLICT: 409,
  /** The quote behind the plan has expired: request a new quote. */
  PLAN_EXPIRED: 409,
  /** The quote cannot be settled (no on-chain registry state applies), or its transaction is not final yet. */
  PLAN_NOT_READY: 409,
  /** History: the cursor's finalized snapshot is no longer canonical; restart pagination. */
  SNAPSHOT_NOT_CANONICAL: 409,
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
  INTERNAL: 500,
  /** The quote exceeded its 25-second deadline. */
  QUOTE_TIMEOUT: 503,
  /** The node (or every configured RPC) did not answer. */
  UPSTREAM_UNAVAILABLE: 503,
  /** Swap preparation failed; its status is saved under the Idempotency-Key (check it before retrying). */
  PREPARATION_FAILED: 503,
  /** Builder profile: the registry is not commissioned. */
  REGISTRY_UNCOMMISSIONED: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type ErrorIssue = { path: string; message: string };

/** An error the API answers with its code's status; `message` must be safe to show to any client. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): ContentfulStatusCode {
    return ERROR_CODES[this.code];
  }
}

export function errorBody(code: ErrorCode, message: string, issues?: ErrorIssue[]) {
  return { error: { code, message, ...(issues?.length ? { issues } : {}) } };
}

/** Hono `onError`: known errors keep their code; anything else is logged and answered with a bare INTERNAL. */
export function handleError(log: (error: unknown) => void) {
  return (error: Error, c: Context) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.issues), error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono raises these for malformed requests (e.g. an unparsable JSON body).
      return c.json(errorBody("INVALID_REQUEST", "the request could not be parsed"), 400);
    }
    log(error);
    return c.json(errorBody("INTERNAL", "internal error"), 500);
  };
}

export function notFound(c: Context) {
  return c.json(errorBody("NOT_FOUND", `no route for ${c.req.method} ${c.req.path}`), 404);
}
