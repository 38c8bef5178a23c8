import type { Context, MiddlewareHandler } from "hono";
import type { Scope } from "../auth/api-key.ts";
import { authenticate, type Principal } from "../auth/keys.ts";
import type { MeteredBucket } from "../auth/plans.ts";
import { spendQuota } from "../auth/quotas.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";

export type AuthVariables = {
  principal: Principal;
  /** Spends this request's quota; see {@link chargeRequest}. */
  charge: () => Promise<void>;
};

const MESSAGES = {
  missing: "missing API key: send it in the x-api-key header",
  malformed: "invalid API key",
  unknown: "invalid API key",
  expired: "the API key has expired",
  revoked: "the API key has been revoked",
} as const;

/**
 * The gate in front of every builder endpoint (docs/rules.md, auth rules 2-3; errors: builder): the
 * `x-api-key` header must carry a live key (else 401) holding `scope` (else 403). Keys are looked up on
 * every request, so a revocation bites at once. The key itself never appears in a response or a log.
 *
 * Quota is not spent here: the request is validated first, and the handler calls {@link chargeRequest}
 * right before doing the work, so a request refused as invalid (400), or for service capacity (429 BUSY),
 * spends nothing, just as a request refused for quota spends nothing.
 */
export function builderAccess(
  db: Db,
  scope: Scope,
  bucket: MeteredBucket | null = scope === "swap" ? "swap" : scope,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const principal = await authenticate(db, c.req.header("x-api-key"));
    if ("failure" in principal) throw new JunctionError("UNAUTHORIZED", MESSAGES[principal.failure]);
    if (!principal.scopes.includes(scope))
      throw new JunctionError("FORBIDDEN", `the API key lacks the ${scope} scope`);
    let charged = false;
    c.set("principal", principal);
    c.set("charge", async () => {
      if (charged || !bucket) return;
      charged = true;
      await spend(db, principal, bucket);
    });
    await next();
  };
}

/**
 * Spends one request from the workspace's quotas: the bucket's per-minute quota (429 QUOTA_EXCEEDED with
 * Retry-After) and the hourly allowance (402 ALLOWANCE_EXHAUSTED with Retry-After). Call it once the
 * request is valid, right before the work; a second call in the same request spends nothing.
 */
export function chargeRequest(c: Context<{ Variables: AuthVariables }>): Promise<void> {
  return c.get("charge")();
}

async function spend(db: Db, principal: Principal, bucket: MeteredBucket): Promise<void> {
  const decision = await spendQuota(db, { id: principal.workspaceId, plan: principal.plan }, bucket);
  if (decision.ok) return;
  const retryAfterSeconds = decision.retryAfterSeconds;
  throw decision.reason === "rate"
    ? new JunctionError("QUOTA_EXCEEDED", "the workspace's per-minute quota is spent", { retryAfterSeconds })
    : new JunctionError("ALLOWANCE_EXHAUSTED", "the workspace's hourly allowance is spent", {
        retryAfterSeconds,
      });
}
