import { spendFromPartnerCounters } from "../store/repositories/quota-counters.ts";
import type { Db } from "../store/schema.ts";
import { PARTNER_LIMITS } from "./limits.ts";

/** What a partner request spends from: quotes (with or without a transaction) and token lookups. */
export type PartnerRateBucket = keyof typeof PARTNER_LIMITS.ratePerKeyPerMinute;

export type PartnerRateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Spends one request from the key's per-minute rate for `bucket` (docs/rules.md, ours: partner rate
 * limits). One conditional upsert in a transaction on the database clock, as workspace quotas are, so every
 * process sharing the database shares the rate and a refused request spends nothing.
 */
export async function spendPartnerRate(
  db: Db,
  keyId: string,
  bucket: PartnerRateBucket,
): Promise<PartnerRateDecision> {
  const limit = PARTNER_LIMITS.ratePerKeyPerMinute[bucket];
  const spent = await spendFromPartnerCounters(db, keyId, [{ bucket, window: "1 minute", limit }]);
  return spent.ok ? { ok: true } : { ok: false, retryAfterSeconds: spent.resetSeconds };
}
