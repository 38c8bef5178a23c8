/**
 * Repository of webhook deliveries (migration 0014): what is due, claimed by one process at a time
 * (`FOR UPDATE SKIP LOCKED` plus a claim that expires, so a process that dies mid-delivery only delays it),
 * each attempt's outcome, and the log an owner reads.
 */
import { sql } from "kysely";
import type { Db, WebhookDeliveryStatus } from "../schema.ts";

/** A claimed delivery with what sending it needs. */
export type DueDelivery = {
  id: string;
  eventId: string;
  eventType: string;
  payload: string;
  endpointId: string;
  url: string;
  secrets: string[];
  attempts: number;
};

/**
 * Claims up to `limit` due deliveries for `claimSeconds`: pending, due, and not claimed by a live claim.
 * Secrets come with them: the current one, and the replaced one while its overlap lasts.
 */
export async function claimDueDeliveries(
  db: Db,
  limit: number,
  claimSeconds: number,
): Promise<DueDelivery[]> {
  const claimed = await sql<{ id: string }>`
    update webhook_deliveries d set claimed_until = now() + make_interval(secs => ${claimSeconds})
    where d.id in (
      select id from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning d.id`.execute(db);
  if (claimed.rows.length === 0) return [];
  const rows = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .innerJoin("webhook_endpoints as w", "w.id", "d.endpoint_id")
    .select([
      "d.id",
      "d.event_id",
      "e.type",
      "e.payload",
      "d.endpoint_id",
      "w.url",
      "w.secret",
      "w.previous_secret",
      sql<boolean>`coalesce(w.previous_secret_until > now(), false)`.as("previous_valid"),
      "d.attempts",
    ])
    .where(
      "d.id",
      "in",
      claimed.rows.map((row) => row.id),
    )
    .orderBy("d.next_attempt_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    payload: row.payload,
    endpointId: row.endpoint_id,
    url: row.url,
    secrets: row.previous_valid && row.previous_secret ? [row.secret, row.previous_secret] : [row.secret],
    attempts: row.attempts,
  }));
}

/**
 * How long until the next pending delivery is due (its retry time, or the end of a live claim on it), in ms
 * by the database's clock; 0 when one is due now, undefined when nothing is pending.
 */
export async function nextDeliveryDueInMs(db: Db): Promise<number | undefined> {
  const row = await sql<{ due_in_ms: number | string | null }>`
    select extract(epoch from min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) - now())
      * 1000 as due_in_ms
    from webhook_deliveries where status = 'pending'`.execute(db);
  const dueIn = row.rows[0]?.due_in_ms;
  return dueIn === null || dueIn === undefined ? undefined : Math.max(0, Math.ceil(Number(dueIn)));
}

/**
 * What one attempt came to: delivered, to be tried again `retryInMs` from now (the database's clock, which
 * every process shares), or given up (`failed`).
 */
export type AttemptOutcome = {
  status: WebhookDeliveryStatus;
  retryInMs?: number;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
};

/** Records an attempt of a claimed delivery and releases its claim. */
export async function recordAttempt(db: Db, id: string, outcome: AttemptOutcome): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set((eb) => ({
      status: outcome.status,
      attempts: eb("attempts", "+", 1),
      last_attempt_at: sql<Date>`now()`,
      last_status: outcome.httpStatus,
      last_error: outcome.error,
      last_response: outcome.responseExcerpt,
      claimed_until: null,
      ...(outcome.retryInMs !== undefined
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})` }
        : {}),
    }))
    .where("id", "=", id)
    .execute();
}

export type DeliveryLogEntry = {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  lastResponse: string | null;
  createdAt: Date;
};

/** The endpoint's deliveries, newest first, at most `limit`. */
export async function deliveriesOf(db: Db, endpointId: string, limit: number): Promise<DeliveryLogEntry[]> {
  const rows = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.event_id",
      "e.type",
      "d.status",
      "d.attempts",
      "d.next_attempt_at",
      "d.last_attempt_at",
      "d.last_status",
      "d.last_error",
      "d.last_response",
      "d.created_at",
    ])
    .where("d.endpoint_id", "=", endpointId)
    .orderBy("d.created_at", "desc")
    .orderBy("d.id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? new Date(row.next_attempt_at) : null,
    lastAttemptAt: row.last_attempt_at && new Date(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastResponse: row.last_response,
    createdAt: new Date(row.created_at),
  }));
}

/**
 * Sends a delivery of the endpoint again from the start of the retry schedule (after a failure, or to
 * receive it once more). Returns whether there was such a delivery.
 */
export async function redeliver(db: Db, endpointId: string, deliveryId: string): Promise<boolean> {
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", attempts: 0, next_attempt_at: sql<Date>`now()`, claimed_until: null })
    .where("id", "=", deliveryId)
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deliveries waiting to be sent (pending), for metrics. */
export async function pendingDeliveries(db: Db): Promise<number> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
