import type { MiddlewareHandler } from "hono";
import type { Scope } from "../auth/api-key.ts";
import { authenticate, type Principal } from "../auth/keys.ts";
import type { MeteredBucket } from "../auth/plans.ts";
import { spendQuota } from "../auth/quotas.ts";
import type { Db } from "../store/schema.ts";
import { ApiError } from "./errors.ts";

export type AuthVariables = { principal: Principal };

const MESSAGES = {
  missing: "missing API key: send it in the x-api-key header",
  malformed: "invalid API key",
  unknown: "invalid API key",
  expired: "the API key has expired",
  revoked: "the API key has been revoked",
} as const;

/**
 * The gate in front of every builder endpoint (SPEC "Authentication", "Errors"): the `x-api-key` header must
 * carry a live key (else 401) holding `scope` (else 403); then one request is spent from the workspace's
 * quotas: the bucket's per-minute quota (429 QUOTA_EXCEEDED with Retry-After) and the hourly allowance (402
 * ALLOWANCE_EXHAUSTED with Retry-After). Keys are looked up on every request, so a revocation bites at once.
 * The key itself never appears in a response or a log.
 */
export function builderAccess(
  db: Db,
  scope: Scope,
  bucket: MeteredBucket | null = scope === "swap" ? "swap" : scope,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const principal = await authenticate(db, c.req.header("x-api-key"));
    if ("failure" in principal) throw new ApiError("UNAUTHORIZED", MESSAGES[principal.failure]);
    if (!principal.scopes.includes(scope))
      throw new ApiError("FORBIDDEN", `the API key lacks the ${scope} scope`);
    if (bucket) {
      const decision = await spendQuota(db, { id: principal.workspaceId, plan: principal.plan }, bucket);
      if (!decision.ok) {
        const headers = { "Retry-After": String(decision.retryAfterSeconds) };
        throw decision.reason === "rate"
          ? new ApiError("QUOTA_EXCEEDED", "the workspace's per-minute quota is spent", undefined, headers)
          : new ApiError(
              "ALLOWANCE_EXHAUSTED",
              "the workspace's hourly allowance is spent",
              undefined,
              headers,
            );
      }
    }
    c.set("principal", principal);
    await next();
  };
}
