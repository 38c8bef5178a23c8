/** The body every Junction error answers with (docs/rules.md, ours: error body). */
export type ErrorBody = {
  error: { code: string; message: string; reason?: string; issues?: { path: string; message: string }[] };
};

/**
 * A request Junction answered with an error: the HTTP status, the closed `code` (e.g. `QUOTA_EXCEEDED`),
 * the closed `reason` where one applies, the rejected inputs, `Retry-After` in seconds when sent, and the
 * request's trace id (`x-request-id`) to quote to the operator.
 */
export class JunctionApiError extends Error {
  override name = "JunctionApiError";
  readonly status: number;
  readonly code: string;
  readonly reason: string | undefined;
  readonly issues: { path: string; message: string }[];
  readonly retryAfterSeconds: number | undefined;
  readonly requestId: string | undefined;

  constructor(response: Response, body: unknown) {
    const error = (body as Partial<ErrorBody> | undefined)?.error;
    const code = typeof error?.code === "string" ? error.code : `HTTP_${response.status}`;
    super(
      typeof error?.message === "string" ? `${code}: ${error.message}` : `${code}: ${response.statusText}`,
    );
    this.status = response.status;
    this.code = code;
    this.reason = error?.reason;
    this.issues = error?.issues ?? [];
    const retryAfter = response.headers.get("retry-after");
    this.retryAfterSeconds =
      retryAfter !== null && /^[0-9]+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    this.requestId = response.headers.get("x-request-id") ?? undefined;
  }
}

/** Why the wallet flow stopped before asking the wallet to sign (docs/rules.md, comparison rule 16). */
export class WalletFlowError extends Error {
  override name = "WalletFlowError";
  constructor(
    readonly reason: "simulation-reverted" | "wrong-chain" | "expired",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Why {@link verifyWebhook} refused a delivery (docs/api/builders.md, "Events and webhooks", checking the
 * signature): no `Junction-Signature` header; a header without one `t=` and at least one well-formed `v1=`;
 * a time more than the tolerance away from now (a replay, or a clock far off); no `v1` made with any of
 * the secrets (a wrong secret, or a body changed on the way); or a signed body that is not an event.
 */
export type WebhookSignatureReason =
  | "missing-header"
  | "malformed"
  | "timestamp-out-of-tolerance"
  | "no-matching-signature"
  | "invalid-body";

/** A webhook delivery that did not verify: answer it with a 4xx and do not act on it. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
  constructor(
    readonly reason: WebhookSignatureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
