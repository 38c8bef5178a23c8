import { spendFromTransferCounters } from "../store/repositories/quota-counters.ts";
import type { Db } from "../store/schema.ts";
import { TRANSFER_LIMITS } from "./limits.ts";

export type TransferRateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Spends one estimate from the customer key's per-minute rate (docs/rules.md, ours: transfer estimates). One
 * conditional upsert in a transaction on the database clock, as workspace quotas are, so every process
 * sharing the database shares the rate and a refused request spends nothing.
 */
export async function spendTransferRate(db: Db, keyId: string): Promise<TransferRateDecision> {
  const spent = await spendFromTransferCounters(db, keyId, [
    { bucket: "estimates", window: "1 minute", limit: TRANSFER_LIMITS.ratePerKeyPerMinute },
  ]);
  return spent.ok ? { ok: true } : { ok: false, retryAfterSeconds: spent.resetSeconds };
}
