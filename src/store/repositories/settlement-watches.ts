/**
 * Repository of settlement watches (migration 0014): settlements seen mined before finality, written with
 * their `settlement.confirming` event, and closed (finalized or reorged) with whatever event that writes.
 */
import type { Db } from "../schema.ts";
import { type EventRow, insertEvents } from "./events.ts";

export type SettlementWatch = {
  hash: string;
  blockHash: string;
  blockNumber: bigint;
  logIndex: number;
  quoteId: string;
  workspaceId: string;
  /** The settlement entry the confirming event carried (JSON): a reorged event reports it again. */
  entry: string;
};

export type WatchClosing = { watch: SettlementWatch; status: "finalized" | "reorged" };

/** Opens watches and writes their events in one transaction; a watch already open stays as it was. */
export async function openWatches(db: Db, watches: readonly SettlementWatch[], events: readonly EventRow[]) {
  if (watches.length === 0 && events.length === 0) return;
  await db.transaction().execute(async (tx) => {
    if (watches.length > 0)
      await tx
        .insertInto("settlement_watches")
        .values(
          watches.map((watch) => ({
            hash: watch.hash,
            block_hash: watch.blockHash,
            block_number: watch.blockNumber,
            log_index: watch.logIndex,
            quote_id: watch.quoteId,
            workspace_id: watch.workspaceId,
            status: "confirming" as const,
            entry: watch.entry,
          })),
        )
        .onConflict((oc) => oc.columns(["hash", "block_hash", "log_index"]).doNothing())
        .execute();
    await insertEvents(tx, events);
  });
}

/** Closes watches in the caller's transaction `tx`. */
export async function closeWatches(tx: Db, closings: readonly WatchClosing[]): Promise<void> {
  for (const { watch, status } of closings)
    await tx
      .updateTable("settlement_watches")
      .set({ status })
      .where("hash", "=", watch.hash)
      .where("block_hash", "=", watch.blockHash)
      .where("log_index", "=", watch.logIndex)
      .where("status", "=", "confirming")
      .execute();
}

/** Closes watches and writes their events in one transaction. */
export async function closeWatchesWithEvents(
  db: Db,
  closings: readonly WatchClosing[],
  events: readonly EventRow[],
): Promise<void> {
  if (closings.length === 0) return;
  await db.transaction().execute(async (tx) => {
    await closeWatches(tx, closings);
    await insertEvents(tx, events);
  });
}

/** Watches still confirming, at heights `numbers` when given, oldest first. */
export async function confirmingWatches(db: Db, numbers?: readonly bigint[]): Promise<SettlementWatch[]> {
  let query = db
    .selectFrom("settlement_watches")
    .select(["hash", "block_hash", "block_number", "log_index", "quote_id", "workspace_id", "entry"])
    .where("status", "=", "confirming");
  if (numbers) {
    if (numbers.length === 0) return [];
    query = query.where(
      "block_number",
      "in",
      numbers.map((n) => n.toString()),
    );
  }
  const rows = await query.orderBy("block_number").execute();
  return rows.map((row) => ({
    hash: row.hash,
    blockHash: row.block_hash,
    blockNumber: BigInt(row.block_number),
    logIndex: row.log_index,
    quoteId: row.quote_id,
    workspaceId: row.workspace_id,
    entry: row.entry,
  }));
}

/** How many watches are still confirming. */
export async function confirmingWatchCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("settlement_watches")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("status", "=", "confirming")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
