import { spendFromKeyCounters } from "../store/repositories/quota-counters.ts";
import type { Db } from "../store/schema.ts";

export type KeyRateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Spends one request from a key's own per-minute rate for `bucket` (docs/rules.md, ours: partner rate
 * limits and transfer estimates). One conditional upsert in a transaction on the database clock, as
 * workspace quotas are, so every process sharing the database shares the rate and a refused request spends
 * nothing. The limit is the surface's (partners/limits.ts, transfers/limits.ts).
 */
export async function spendKeyRate(
  db: Db,
  keyId: string,
  bucket: string,
  perMinute: number,
): Promise<KeyRateDecision> {
  const spent = await spendFromKeyCounters(db, keyId, [{ bucket, window: "1 minute", limit: perMinute }]);
  return spent.ok ? { ok: true } : { ok: false, retryAfterSeconds: spent.resetSeconds };
}
