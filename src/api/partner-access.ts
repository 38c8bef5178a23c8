import type { Context, MiddlewareHandler } from "hono";
import { authenticatePartner, type PartnerPrincipal, SWAP_PARAMETERS } from "../auth/partner-keys.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { type PartnerRateBucket, spendPartnerRate } from "../partners/rate-limit.ts";
import type { Db } from "../store/schema.ts";

export type { PartnerPrincipal } from "../auth/partner-keys.ts";
export type { PartnerRateBucket } from "../partners/rate-limit.ts";

export type PartnerAccessVariables = {
  partner: PartnerPrincipal;
  /** Spends this request's rate; see {@link chargePartnerRequest}. */
  chargePartner: (bucket: PartnerRateBucket) => Promise<void>;
};

const MESSAGES = {
  missing: "missing partner API key: send it as Authorization: Bearer <key>",
  malformed: "invalid partner API key",
  unknown: "invalid partner API key",
  expired: "the partner API key has expired",
  revoked: "the partner API key has been revoked",
} as const;

/**
 * The gate in front of every partner endpoint (docs/rules.md, auth rule 7): `Authorization: Bearer <key>`
 * must carry a live partner key, else 401 UNAUTHORIZED with `WWW-Authenticate: Bearer` (missing, malformed,
 * unknown, expired or revoked; the message never repeats the key). Sets `c.var.partner`. Keys are looked
 * up on every request, so a revocation bites at once.
 *
 * The rate is not spent here: the handler validates the request first and calls
 * {@link chargePartnerRequest} right before the work, so a request refused as invalid (400), forbidden (403)
 * or for capacity (429 BUSY) spends nothing.
 */
export function partnerAccess(db: Db): MiddlewareHandler<{ Variables: PartnerAccessVariables }> {
  return async (c, next) => {
    const partner = await authenticatePartner(db, c.req.header("authorization"));
    if ("failure" in partner) {
      c.header("WWW-Authenticate", 'Bearer realm="junction-partner"');
      throw new JunctionError("UNAUTHORIZED", MESSAGES[partner.failure]);
    }
    let charged = false;
    c.set("partner", partner);
    c.set("chargePartner", async (bucket) => {
      if (charged) return;
      charged = true;
      const decision = await spendPartnerRate(db, partner.keyId, bucket);
      if (!decision.ok)
        throw new JunctionError("RATE_LIMITED", `the partner key's per-minute ${bucket} rate is spent`, {
          retryAfterSeconds: decision.retryAfterSeconds,
        });
    });
    await next();
  };
}

/**
 * Spends one request from the key's per-minute rate for `bucket` (`quote` or `tokens`; docs/rules.md,
 * ours: partner rate limits): 429 RATE_LIMITED with Retry-After (the seconds left in the minute window)
 * when it is spent. Call it once the request is valid, right before the work; a second call in the same
 * request spends nothing.
 */
export function chargePartnerRequest(
  c: Context<{ Variables: PartnerAccessVariables }>,
  bucket: PartnerRateBucket,
): Promise<void> {
  return c.get("chargePartner")(bucket);
}

/**
 * 403 FORBIDDEN naming the transaction parameters (`recipient`, `slippageBps`, `minOut`, `deadline`) among
 * `usedParams` when the key lacks swap permission (docs/rules.md, auth rule 7). Other names in
 * `usedParams` are ignored, so the request's query keys may be passed as they are.
 */
export function requireSwapPermission(
  c: Context<{ Variables: PartnerAccessVariables }>,
  usedParams: readonly string[],
): void {
  if (c.get("partner").swap) return;
  const used = SWAP_PARAMETERS.filter((name) => usedParams.includes(name));
  if (used.length > 0)
    throw new JunctionError(
      "FORBIDDEN",
      `${used.join(", ")} ${used.length === 1 ? "needs" : "need"} a partner key with swap permission`,
    );
}
