import type { Context } from "hono";
import { type BuilderScope, builderKeys, type Principal } from "../auth/keys.ts";
import type { MeteredBucket } from "../auth/plans.ts";
import { spendQuota } from "../auth/quotas.ts";
import { JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";
import { chargeKeyRequest, type KeyAccessVariables, type KeyGate, keyAccess } from "./key-access.ts";

export type AuthVariables = KeyAccessVariables<"principal", Principal>;

/**
 * Builder keys at the edge (docs/rules.md, auth rules 2-3; errors: builder): `x-api-key`, spending the
 * workspace's quotas: the bucket's per-minute quota (429 QUOTA_EXCEEDED with Retry-After) and the hourly
 * allowance (402 ALLOWANCE_EXHAUSTED with Retry-After).
 */
const BUILDER_GATE: KeyGate<BuilderScope, Principal, "principal", MeteredBucket> = {
  family: builderKeys,
  variable: "principal",
  header: "x-api-key",
  scopes: (principal) => principal.scopes,
  noun: "API key",
  howToSend: "send it in the x-api-key header",
  async spend(db, principal, bucket) {
    const decision = await spendQuota(db, { id: principal.workspaceId, plan: principal.plan }, bucket);
    if (decision.ok) return;
    const retryAfterSeconds = decision.retryAfterSeconds;
    throw decision.reason === "rate"
      ? new JunctionError("QUOTA_EXCEEDED", "the workspace's per-minute quota is spent", {
          retryAfterSeconds,
        })
      : new JunctionError("ALLOWANCE_EXHAUSTED", "the workspace's hourly allowance is spent", {
          retryAfterSeconds,
        });
  },
};

/** The gate in front of every builder endpoint: a live key holding `scope`, charging `bucket` (see keyAccess). */
export function builderAccess(
  db: Db,
  scope: BuilderScope,
  bucket: MeteredBucket | null = scope === "swap" ? "swap" : scope,
) {
  return keyAccess(BUILDER_GATE, db, { scope, bucket });
}

/** Spends one request from the workspace's quotas, once; call it once the request is valid, right before the work. */
export function chargeRequest(c: Context<{ Variables: AuthVariables }>): Promise<void> {
  return chargeKeyRequest(c);
}
