/**
 * Repository of the settlement index (migration 0009): the collector's finalized `Settled` events as JSON
 * settlement entries, and how far the index reaches. The builders domain owns the entries' shape.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";
import { type EventRow, insertEvents } from "./events.ts";
import { closeWatches, type WatchClosing } from "./settlement-watches.ts";

const STATE_ID = "settlements";
/** Serializes index saves across processes ("JSETTIDX" in ASCII). */
const SETTLEMENT_INDEX_LOCK = 0x4a53455454494458n;

export type SettlementIndexState = { collector: string; indexedThrough: bigint; indexedHash: string };
export type SettlementEventRow = { blockNumber: bigint; logIndex: number; builderId: string; entry: string };

export async function settlementIndexState(db: Db): Promise<SettlementIndexState | undefined> {
  const row = await db
    .selectFrom("settlement_index_state")
    .select(["collector", "indexed_through", "indexed_hash"])
    .where("id", "=", STATE_ID)
    .executeTakeFirst();
  return (
    row && {
      collector: row.collector,
      indexedThrough: BigInt(row.indexed_through),
      indexedHash: row.indexed_hash,
    }
  );
}

/**
 * Records the events of blocks `from` through `state.indexedThrough` and moves the index there, in one
 * transaction under an advisory lock; `reset` first forgets every event (another collector, or a chain that
 * no longer has the indexed block). A save that would not move the index forward changes nothing (another
 * process got there first). What finality brings (events, watch closings) is written with it, or not at all.
 * Returns whether it wrote.
 */
export async function saveSettlementIndex(
  db: Db,
  change: {
    from: bigint;
    events: SettlementEventRow[];
    state: SettlementIndexState;
    reset: boolean;
    /** The outbox events and watch closings finality brings, written in the same transaction. */
    finality?: { events: readonly EventRow[]; closings: readonly WatchClosing[] };
  },
): Promise<boolean> {
  const nothingFound =
    !change.reset &&
    change.events.length === 0 &&
    (change.finality?.events.length ?? 0) === 0 &&
    (change.finality?.closings.length ?? 0) === 0;
  // Most saves find nothing (an idle chain's finalized block moving on): one statement moves the index
  // forward, instead of a transaction of six. Guarded like the full save: the same collector, and only
  // forward. Events of the blocks it covers cannot be in the table, since the scan found none there.
  if (nothingFound && (await moveIndexForward(db, change.state))) return true;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SETTLEMENT_INDEX_LOCK.toString()}::bigint)`.execute(tx);
    const current = await tx
      .selectFrom("settlement_index_state")
      .select(["collector", "indexed_through"])
      .where("id", "=", STATE_ID)
      .executeTakeFirst();
    if (
      !change.reset &&
      current?.collector === change.state.collector &&
      BigInt(current.indexed_through) >= change.state.indexedThrough
    )
      return false;
    if (change.reset) await tx.deleteFrom("settlement_events").execute();
    else
      await tx.deleteFrom("settlement_events").where("block_number", ">=", change.from.toString()).execute();
    for (let i = 0; i < change.events.length; i += 500) {
      await tx
        .insertInto("settlement_events")
        .values(
          change.events.slice(i, i + 500).map((event) => ({
            block_number: event.blockNumber,
            log_index: event.logIndex,
            builder_id: event.builderId,
            entry: event.entry,
          })),
        )
        .execute();
    }
    const state = {
      collector: change.state.collector,
      indexed_through: change.state.indexedThrough,
      indexed_hash: change.state.indexedHash,
    };
    await tx
      .insertInto("settlement_index_state")
      .values({ id: STATE_ID, ...state })
      .onConflict((oc) => oc.column("id").doUpdateSet(state))
      .execute();
    if (change.finality) {
      await closeWatches(tx, change.finality.closings);
      await insertEvents(tx, change.finality.events);
    }
    return true;
  });
}

/** Moves the index to `state` if it is of the same collector and behind it; whether it moved. */
async function moveIndexForward(db: Db, state: SettlementIndexState): Promise<boolean> {
  const result = await db
    .updateTable("settlement_index_state")
    .set({ indexed_through: state.indexedThrough, indexed_hash: state.indexedHash })
    .where("id", "=", STATE_ID)
    .where("collector", "=", state.collector)
    .where("indexed_through", "<", state.indexedThrough.toString())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A builder's indexed events from block `from` through `to`, in chain order. */
export async function settlementEventsFor(
  db: Db,
  builderId: string,
  from: bigint,
  to: bigint,
): Promise<string[]> {
  const rows = await db
    .selectFrom("settlement_events")
    .select("entry")
    .where("builder_id", "=", builderId)
    .where("block_number", ">=", from.toString())
    .where("block_number", "<=", to.toString())
    .orderBy("block_number")
    .orderBy("log_index")
    .execute();
  return rows.map((row) => row.entry);
}

/** Where the indexed settlements at these places are (block hash, transaction hash, log index). */
export async function settlementEventsAt(
  db: Db,
  places: readonly { blockNumber: bigint; logIndex: number }[],
): Promise<{ hash: string; blockHash: string; logIndex: number }[]> {
  if (places.length === 0) return [];
  const rows = await db
    .selectFrom("settlement_events")
    .select("entry")
    .where((eb) =>
      eb.or(
        places.map((place) =>
          eb.and([
            eb("block_number", "=", place.blockNumber.toString()),
            eb("log_index", "=", place.logIndex),
          ]),
        ),
      ),
    )
    .execute();
  return rows.map((row) => {
    const entry = JSON.parse(row.entry) as { hash: string; blockHash: string; logIndex: number };
    return { hash: entry.hash, blockHash: entry.blockHash, logIndex: entry.logIndex };
  });
}
