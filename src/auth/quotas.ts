import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.ts";
import { type MeteredBucket, perMinuteLimit, planOf } from "./plans.ts";

export type QuotaDecision =
  | { ok: true }
  /** The per-minute quota of the bucket is spent (429); retry after `retryAfterSeconds`. */
  | { ok: false; reason: "rate"; retryAfterSeconds: number }
  /** The workspace's hourly allowance is spent (402); it renews after `retryAfterSeconds`. */
  | { ok: false; reason: "allowance"; retryAfterSeconds: number };

const HOURLY = "hourly";

/**
 * Spends one request from a workspace's quotas: the bucket's per-minute quota (skipped for `swap`) and the
 * hourly allowance. Both counters move in one transaction with conditional upserts, so concurrent requests
 * from any number of processes sharing the database never overspend, and a refused request spends nothing.
 * Windows are aligned on the database clock (one clock for every process).
 */
export async function spendQuota(
  db: Kysely<Database>,
  workspace: { id: string; plan: string },
  bucket: MeteredBucket,
): Promise<QuotaDecision> {
  const plan = planOf(workspace.plan);
  return db.transaction().execute(async (tx) => {
    if (bucket !== "swap") {
      const spent = await spend(tx, workspace.id, bucket, "1 minute", perMinuteLimit(plan, bucket));
      if (!spent.ok) return { ok: false, reason: "rate", retryAfterSeconds: spent.resetSeconds };
    }
    const hourly = await spend(tx, workspace.id, HOURLY, "1 hour", plan.requestsPerHour);
    if (!hourly.ok) {
      // Give back the per-minute unit spent above: the refused request must cost nothing.
      if (bucket !== "swap") await giveBack(tx, workspace.id, bucket, "1 minute");
      return { ok: false, reason: "allowance", retryAfterSeconds: hourly.resetSeconds };
    }
    return { ok: true };
  });
}

async function spend(
  db: Kysely<Database>,
  workspaceId: string,
  bucket: string,
  window: "1 minute" | "1 hour",
  limit: number,
): Promise<{ ok: true } | { ok: false; resetSeconds: number }> {
  const start = windowStart(window);
  const spent = await sql<{ count: number }>`
    insert into quota_counters (workspace_id, bucket, window_start, count)
    values (${workspaceId}, ${bucket}, ${start}, 1)
    on conflict (workspace_id, bucket, window_start)
    do update set count = quota_counters.count + 1 where quota_counters.count < ${limit}
    returning count`.execute(db);
  if (spent.rows.length > 0 && limit > 0) return { ok: true };
  const reset = await sql<{ seconds: string }>`
    select ceil(extract(epoch from (${start} + ${window}::interval - now()))) as seconds`.execute(db);
  return { ok: false, resetSeconds: Math.max(1, Number(reset.rows[0]?.seconds ?? 1)) };
}

async function giveBack(db: Kysely<Database>, workspaceId: string, bucket: string, window: "1 minute") {
  await sql`
    update quota_counters set count = count - 1
    where workspace_id = ${workspaceId} and bucket = ${bucket} and window_start = ${windowStart(window)}
      and count > 0`.execute(db);
}

/** The current window's start on the database clock. */
function windowStart(window: "1 minute" | "1 hour") {
  return sql`date_bin(${window}::interval, now(), timestamptz '2000-01-01 00:00:00+00')`;
}

export type UsageCounters = Record<MeteredBucket | "hourly", number>;

/** What the workspace has spent in the current windows (for `GET /api/v2/builders/usage`). */
export async function currentUsage(db: Kysely<Database>, workspaceId: string): Promise<UsageCounters> {
  const rows = await sql<{ bucket: string; count: number }>`
    select bucket, count from quota_counters
    where workspace_id = ${workspaceId}
      and ((bucket = ${HOURLY} and window_start = ${windowStart("1 hour")})
        or (bucket <> ${HOURLY} and window_start = ${windowStart("1 minute")}))`.execute(db);
  const usage: UsageCounters = { quote: 0, receipts: 0, tokens: 0, swap: 0, hourly: 0 };
  for (const row of rows.rows) usage[row.bucket as keyof UsageCounters] = Number(row.count);
  return usage;
}

/**
 * Deletes counters of windows that ended more than a day ago (nothing reads them); returns how many. The
 * service runs it at start and hourly, so the table stays the size of the current windows.
 */
export async function pruneQuotaCounters(db: Kysely<Database>): Promise<number> {
  const result = await sql`
    delete from quota_counters where window_start < now() - interval '1 day'`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** When the current per-minute and hourly windows end (ISO 8601 UTC), on the database clock quotas count by. */
export async function windowEnds(
  db: Kysely<Database>,
): Promise<{ minuteResetsAt: string; hourResetsAt: string }> {
  const { rows } = await sql<{ minute: Date | string; hour: Date | string }>`
    select ${windowStart("1 minute")} + '1 minute'::interval as minute,
           ${windowStart("1 hour")} + '1 hour'::interval as hour`.execute(db);
  const row = rows[0]!;
  return {
    minuteResetsAt: new Date(row.minute).toISOString(),
    hourResetsAt: new Date(row.hour).toISOString(),
  };
}
