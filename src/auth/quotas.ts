import {
  type CounterSpend,
  countersInCurrentWindows,
  currentWindowEnds,
  deleteCountersOlderThanADay,
  spendFromCounters,
} from "../store/repositories/quota-counters.ts";
import type { Db } from "../store/schema.ts";
import { type MeteredBucket, perMinuteLimit, planOf } from "./plans.ts";

export type QuotaDecision =
  | { ok: true }
  /** The per-minute quota of the bucket is spent (429); retry after `retryAfterSeconds`. */
  | { ok: false; reason: "rate"; retryAfterSeconds: number }
  /** The workspace's hourly allowance is spent (402); it renews after `retryAfterSeconds`. */
  | { ok: false; reason: "allowance"; retryAfterSeconds: number };

const HOURLY = "hourly";

/**
 * Spends one request from a workspace's quotas: the bucket's per-minute quota (for `swap` a count without a
 * limit of its own) and the hourly allowance. Both counters move in one transaction with conditional upserts, so concurrent requests
 * from any number of processes sharing the database never overspend, and a refused request spends nothing.
 * Windows are aligned on the database clock (one clock for every process).
 */
export async function spendQuota(
  db: Db,
  workspace: { id: string; plan: string },
  bucket: MeteredBucket,
): Promise<QuotaDecision> {
  const plan = planOf(workspace.plan);
  const hourly: CounterSpend = { bucket: HOURLY, window: "1 hour", limit: plan.requestsPerHour };
  // Swaps have no per-minute limit of their own: their minute counter is only a count for the usage
  // report, spent after the hourly allowance (which bounds it) so a full hour answers 402, never 429.
  const counters: CounterSpend[] =
    bucket === "swap"
      ? [hourly, { bucket, window: "1 minute", limit: plan.requestsPerHour }]
      : [{ bucket, window: "1 minute", limit: perMinuteLimit(plan, bucket) }, hourly];
  const spent = await spendFromCounters(db, workspace.id, counters);
  if (spent.ok) return { ok: true };
  return {
    ok: false,
    reason: spent.refused.bucket === HOURLY ? "allowance" : "rate",
    retryAfterSeconds: spent.resetSeconds,
  };
}

export type UsageCounters = Record<MeteredBucket | "hourly", number>;

/** What the workspace has spent in the current windows (for `GET /api/v2/builders/usage`). */
export async function currentUsage(db: Db, workspaceId: string): Promise<UsageCounters> {
  const usage: UsageCounters = { quote: 0, receipts: 0, tokens: 0, swap: 0, hourly: 0 };
  for (const row of await countersInCurrentWindows(db, workspaceId, HOURLY))
    usage[row.bucket as keyof UsageCounters] = Number(row.count);
  return usage;
}

/**
 * Deletes counters of windows that ended more than a day ago (nothing reads them); returns how many. The
 * service runs it at start and hourly, so the table stays the size of the current windows.
 */
export async function pruneQuotaCounters(db: Db): Promise<number> {
  return deleteCountersOlderThanADay(db);
}

/** When the current per-minute and hourly windows end (ISO 8601 UTC), on the database clock quotas count by. */
export async function windowEnds(db: Db): Promise<{ minuteResetsAt: string; hourResetsAt: string }> {
  const ends = await currentWindowEnds(db);
  return { minuteResetsAt: ends.minute.toISOString(), hourResetsAt: ends.hour.toISOString() };
}
