/**
 * Repository of the counter tables: `quota_counters` (one counter per workspace, bucket and window) and
 * `key_rate_counters` (the same per key, for the families rated per key), windows aligned on the database
 * clock (one clock for every process). Repositories live in src/store, below every domain that shares a table: domain code calls
 * them, src/api never does.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

export type QuotaWindow = "1 minute" | "1 hour";

/** One counter to spend from: at most `limit` units per `window`. */
export type CounterSpend = { bucket: string; window: QuotaWindow; limit: number };

export type CounterSpendResult =
  | { ok: true }
  /** `refused` was at its limit: nothing was spent; its window ends in `resetSeconds` (at least 1). */
  | { ok: false; refused: CounterSpend; resetSeconds: number };

/** A counter table and the column naming whose counters they are; both tables share one shape. */
type CounterOwner =
  | { table: "quota_counters"; column: "workspace_id"; id: string }
  | { table: "key_rate_counters"; column: "key_id"; id: string };

/**
 * Spends one unit from each of a workspace's counters, in order, all or nothing: one transaction of
 * conditional upserts, so concurrent spenders in any number of processes never overspend. When a counter is
 * at its limit the units this call already spent are given back before it answers, and the later counters
 * are not touched.
 */
export async function spendFromCounters(
  db: Db,
  workspaceId: string,
  counters: CounterSpend[],
): Promise<CounterSpendResult> {
  return spendAllOrNothing(
    db,
    { table: "quota_counters", column: "workspace_id", id: workspaceId },
    counters,
  );
}

/** The same as {@link spendFromCounters}, from a key's own counters. */
export async function spendFromKeyCounters(
  db: Db,
  keyId: string,
  counters: CounterSpend[],
): Promise<CounterSpendResult> {
  return spendAllOrNothing(db, { table: "key_rate_counters", column: "key_id", id: keyId }, counters);
}

async function spendAllOrNothing(
  db: Db,
  owner: CounterOwner,
  counters: CounterSpend[],
): Promise<CounterSpendResult> {
  return db.transaction().execute(async (tx) => {
    for (const [i, counter] of counters.entries()) {
      const spent = await spend(tx, owner, counter);
      if (spent.ok) continue;
      for (const earlier of counters.slice(0, i)) await giveBack(tx, owner, earlier);
      return { ok: false, refused: counter, resetSeconds: spent.resetSeconds };
    }
    return { ok: true };
  });
}

async function spend(
  db: Db,
  owner: CounterOwner,
  { bucket, window, limit }: CounterSpend,
): Promise<{ ok: true } | { ok: false; resetSeconds: number }> {
  const start = windowStart(window);
  const table = sql.table(owner.table);
  const column = sql.ref(owner.column);
  const count = sql.ref(`${owner.table}.count`);
  const spent = await sql<{ count: number }>`
    insert into ${table} (${column}, bucket, window_start, count)
    values (${owner.id}, ${bucket}, ${start}, 1)
    on conflict (${column}, bucket, window_start)
    do update set count = ${count} + 1 where ${count} < ${limit}
    returning count`.execute(db);
  if (spent.rows.length > 0 && limit > 0) return { ok: true };
  const reset = await sql<{ seconds: string }>`
    select ceil(extract(epoch from (${start} + ${window}::interval - now()))) as seconds`.execute(db);
  return { ok: false, resetSeconds: Math.max(1, Number(reset.rows[0]?.seconds ?? 1)) };
}

async function giveBack(db: Db, owner: CounterOwner, { bucket, window }: CounterSpend): Promise<void> {
  await sql`
    update ${sql.table(owner.table)} set count = count - 1
    where ${sql.ref(owner.column)} = ${owner.id} and bucket = ${bucket}
      and window_start = ${windowStart(window)} and count > 0`.execute(db);
}

/** The current window's start on the database clock. */
function windowStart(window: QuotaWindow) {
  return sql`date_bin(${window}::interval, now(), timestamptz '2000-01-01 00:00:00+00')`;
}

/**
 * The workspace's counters in the current windows: `hourlyBucket` counts per hour, every other bucket per
 * minute.
 */
export async function countersInCurrentWindows(
  db: Db,
  workspaceId: string,
  hourlyBucket: string,
): Promise<{ bucket: string; count: number }[]> {
  const { rows } = await sql<{ bucket: string; count: number }>`
    select bucket, count from quota_counters
    where workspace_id = ${workspaceId}
      and ((bucket = ${hourlyBucket} and window_start = ${windowStart("1 hour")})
        or (bucket <> ${hourlyBucket} and window_start = ${windowStart("1 minute")}))`.execute(db);
  return rows;
}

/** Deletes counters (workspace and key) of windows that started more than a day ago; returns how many. */
export async function deleteCountersOlderThanADay(db: Db): Promise<number> {
  let deleted = 0;
  for (const table of ["quota_counters", "key_rate_counters"] as const) {
    const result = await sql`
      delete from ${sql.table(table)} where window_start < now() - interval '1 day'`.execute(db);
    deleted += Number(result.numAffectedRows ?? 0n);
  }
  return deleted;
}

/** When the current per-minute and hourly windows end, on the database clock. */
export async function currentWindowEnds(db: Db): Promise<{ minute: Date; hour: Date }> {
  const { rows } = await sql<{ minute: Date | string; hour: Date | string }>`
    select ${windowStart("1 minute")} + '1 minute'::interval as minute,
           ${windowStart("1 hour")} + '1 hour'::interval as hour`.execute(db);
  const row = rows[0]!;
  return { minute: new Date(row.minute), hour: new Date(row.hour) };
}
