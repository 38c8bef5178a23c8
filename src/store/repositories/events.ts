/**
 * Repository of the event outbox (migration 0014): events written in the transaction of the fact they
 * report, each fanned out at once into one delivery per subscribed webhook endpoint of its workspace.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

/** Serializes event writes across processes ("JEVENTS!" in ASCII), so `seq` order is commit order. */
const EVENTS_LOCK = 0x4a4556454e545321n;

export type EventRow = {
  id: string;
  workspaceId: string;
  type: string;
  quoteId: string | null;
  payload: string;
};

export type StoredEvent = EventRow & { seq: bigint; createdAt: Date };

/**
 * Writes `events` in the caller's transaction `tx` (or one of its own): an event whose id is already there
 * (another process, or an earlier run, wrote the same fact) is left as it was. Each new event gets a pending
 * delivery for every endpoint of its workspace subscribed to its type. Returns the ids written.
 */
export async function insertEvents(tx: Db, events: readonly EventRow[]): Promise<string[]> {
  if (events.length === 0) return [];
  if (!tx.isTransaction) return tx.transaction().execute((inner) => insertEvents(inner, events));
  await sql`select pg_advisory_xact_lock(${EVENTS_LOCK.toString()}::bigint)`.execute(tx);
  const written = await tx
    .insertInto("events")
    .values(
      events.map((event) => ({
        id: event.id,
        workspace_id: event.workspaceId,
        type: event.type,
        quote_id: event.quoteId,
        payload: event.payload,
      })),
    )
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .execute();
  const ids = written.map((row) => row.id);
  if (ids.length > 0)
    await sql`insert into webhook_deliveries (id, event_id, endpoint_id, status)
      select gen_random_uuid()::text, e.id, w.id, 'pending'
      from events e join webhook_endpoints w on w.workspace_id = e.workspace_id and e.type = any(w.event_types)
      where e.id in (${sql.join(ids)})`.execute(tx);
  return ids;
}

/** Writes one event delivered to one endpoint only (a test delivery): never in the stream's types. */
export async function insertEventFor(
  db: Db,
  event: EventRow,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    // No endpoint subscribes to a test event's type: the one delivery is written here.
    await insertEvents(tx, [event]);
    await tx
      .insertInto("webhook_deliveries")
      .values({ id: deliveryId, event_id: event.id, endpoint_id: endpointId, status: "pending" })
      .execute();
  });
}

/** The position of event `id` of the workspace in the stream, if it is kept. */
export async function eventSeq(db: Db, workspaceId: string, id: string): Promise<bigint | undefined> {
  const row = await db
    .selectFrom("events")
    .select("seq")
    .where("id", "=", id)
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  return row ? BigInt(row.seq) : undefined;
}

/**
 * The stream position just before the first event (of any workspace: positions are shared) written at or
 * after `since`; the newest position when none was.
 */
export async function seqBefore(db: Db, since: Date): Promise<bigint> {
  const row = await db
    .selectFrom("events")
    .select((eb) => eb.fn.min("seq").as("seq"))
    .where("created_at", ">=", since)
    .executeTakeFirst();
  if (row?.seq === null || row?.seq === undefined) return lastSeq(db);
  return BigInt(row.seq) - 1n;
}

/** The newest stream position (0n on an empty outbox). */
export async function lastSeq(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom("events")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? 0n : BigInt(row.seq);
}

/** The workspace's events after stream position `after`, of `types`, oldest first, at most `limit`. */
export async function eventsAfter(
  db: Db,
  workspaceId: string,
  after: bigint,
  types: readonly string[],
  limit: number,
): Promise<StoredEvent[]> {
  if (types.length === 0) return [];
  const rows = await db
    .selectFrom("events")
    .select(["seq", "id", "workspace_id", "type", "quote_id", "payload", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .where("seq", ">", after.toString())
    .where("type", "in", types)
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    seq: BigInt(row.seq),
    id: row.id,
    workspaceId: row.workspace_id,
    type: row.type,
    quoteId: row.quote_id,
    payload: row.payload,
    createdAt: new Date(row.created_at),
  }));
}

/** Deletes events (and their deliveries) written before `before`. Returns how many. */
export async function pruneEvents(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("events").where("created_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
