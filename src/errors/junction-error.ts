/**
 * The one error model of the service (after viem's `BaseError`): every failure a client may see is a
 * `JunctionError` with a code from this closed list, a short message that is safe to show anyone, and
 * optionally the rejected inputs, a closed reason, a Retry-After and the cause (kept for logs, never sent).
 * Domain folders subclass it with a fixed `name`; `src/api/error-status.ts` maps each code to its one
 * HTTP status. No response ever carries a stack, a remote error body, a credential or calldata.
 */
export const ERROR_CODES = [
  "INVALID_REQUEST",
  "UNSUPPORTED_CHAIN",
  "IDENTICAL_TOKENS",
  "UNSUPPORTED_TERMS",
  "BUILDER_FEE_ABOVE_CAP",
  "RECEIPT_MISMATCH",
  "TRANSACTION_NOT_FOUND",
  "UNSUPPORTED_ACTION",
  "UNAUTHORIZED",
  "ALLOWANCE_EXHAUSTED",
  "FORBIDDEN",
  "NOT_FOUND",
  "PLAN_NOT_FOUND",
  "PAYLOAD_TOO_LARGE",
  "HEADERS_TOO_LARGE",
  "REQUEST_TIMEOUT",
  "BUILDER_NOT_FOUND",
  "IDEMPOTENCY_CONFLICT",
  "PLAN_EXPIRED",
  "PLAN_NOT_READY",
  "SNAPSHOT_NOT_CANONICAL",
  "BLOCK_REORGED",
  "UNKNOWN_TOKEN",
  "NO_ROUTE",
  "NO_EXECUTABLE_ROUTE",
  "PROVIDER_DISABLED",
  "BUSY",
  "QUOTA_EXCEEDED",
  "RATE_LIMITED",
  "INTERNAL",
  "QUOTE_TIMEOUT",
  "UPSTREAM_UNAVAILABLE",
  "PREPARATION_FAILED",
  "REGISTRY_UNCOMMISSIONED",
  "ZAPS_DISABLED",
  "SHUTTING_DOWN",
  "CODE_TAKEN",
  "EVENT_ID_UNKNOWN",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Closed reasons that say more than the code where a client can act on it (e.g. which upstream step
 * failed). A reason is part of the response; it never carries remote text.
 */
export const ERROR_REASONS = [
  /** The chain node did not answer, or answered with an error. */
  "rpc-unavailable",
  /** The chain node is rate-limiting this service: Retry-After says when to ask again. */
  "rpc-rate-limited",
  /** Neither the node's gas price suggestion nor the block's base fee is positive (no zero-price fallback). */
  "gas-price-unavailable",
  /** The node answered `latest` with a block that has no number or hash yet. */
  "block-pending",
  /** The chain tip kept reorganising while a read was pinned to it. */
  "tip-unstable",
  /** The database server did not answer, or the connection to it was lost. */
  "database-unavailable",
  /** Builder quote admission: too many concurrent quotes in this process. */
  "concurrency",
  /** Public quote admission: this minute's admissions are used up. */
  "rate",
  /** Every candidate failed, and a token the trade moves takes a fee on transfer (the message names it). */
  "token-transfer-fee",
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];

/** One rejected input: where (a dotted path) and why. */
export type ErrorIssue = { path: string; message: string };

export type JunctionErrorOptions = {
  issues?: ErrorIssue[];
  reason?: ErrorReason;
  /** Seconds the client should wait before retrying (sent as the Retry-After header). */
  retryAfterSeconds?: number;
  /** What went wrong underneath; logged, never sent. */
  cause?: unknown;
};

export class JunctionError extends Error {
  override name = "JunctionError";
  readonly code: ErrorCode;
  /** Safe to show any client: no remote text, credential, calldata or stack. */
  readonly shortMessage: string;
  readonly issues: ErrorIssue[] | undefined;
  readonly reason: ErrorReason | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, shortMessage: string, options: JunctionErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    // Issues name client input (a key, a path, a value in a validator's message): bounded, like any echo.
    this.issues = options.issues?.map((issue) => ({
      path: echo(issue.path, ISSUE_PATH_BOUND),
      message: echo(issue.message, ISSUE_MESSAGE_BOUND),
    }));
    this.reason = options.reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** 400 INVALID_REQUEST listing the rejected inputs. */
export class InvalidRequestError extends JunctionError {
  override name = "InvalidRequestError";
  constructor(issues: ErrorIssue[], message = "the request is invalid") {
    super("INVALID_REQUEST", message, { issues });
  }
}

/** The longest issue path and message an error carries (they may quote client input). */
const ISSUE_PATH_BOUND = 100;
const ISSUE_MESSAGE_BOUND = 200;

/** A client's input as it may appear inside a message: bounded, so an error never echoes a huge input. */
export function echo(input: string, max = 64): string {
  return input.length <= max ? input : `${input.slice(0, max)}… (${input.length} characters)`;
}

/** Shorthand for an invalid request with one rejected input. */
export const invalidInput = (path: string, message: string) => new InvalidRequestError([{ path, message }]);
