/**
 * Repository of the `swap_preparations` table: one row per key and Idempotency-Key, whose saved status is
 * the source of truth for retries. Repositories live in src/store, below every domain that shares a table:
 * domain code calls them, src/api never does.
 */
import type { Selectable } from "kysely";
import type { Db, SwapPreparationTable } from "../schema.ts";

type PreparationKey = { keyId: string; idempotencyKey: string };

export type PreparationRecord = Selectable<SwapPreparationTable>;

/** Inserts a `pending` row unless one exists under the key; true when inserted. */
export async function insertPendingPreparation(
  db: Db,
  row: PreparationKey & { quoteId: string; requestHash: string; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto("swap_preparations")
    .values({
      key_id: row.keyId,
      idempotency_key: row.idempotencyKey,
      quote_id: row.quoteId,
      request_hash: row.requestHash,
      status: "pending",
      updated_at: row.at,
    })
    .onConflict((oc) => oc.columns(["key_id", "idempotency_key"]).doNothing())
    .returning("status")
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Takes over a `pending` row for the same request last touched before `staleBefore` (its process died):
 * touches it at `at`; true when taken.
 */
export async function takeOverStalePreparation(
  db: Db,
  row: PreparationKey & { requestHash: string; at: Date; staleBefore: Date },
): Promise<boolean> {
  const taken = await db
    .updateTable("swap_preparations")
    .set({ updated_at: row.at })
    .where("key_id", "=", row.keyId)
    .where("idempotency_key", "=", row.idempotencyKey)
    .where("request_hash", "=", row.requestHash)
    .where("status", "=", "pending")
    .where("updated_at", "<", row.staleBefore)
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

/** Deletes the row while it is still `pending` (a saved outcome is never deleted). */
export async function deletePendingPreparation(db: Db, { keyId, idempotencyKey }: PreparationKey) {
  await db
    .deleteFrom("swap_preparations")
    .where("key_id", "=", keyId)
    .where("idempotency_key", "=", idempotencyKey)
    .where("status", "=", "pending")
    .execute();
}

/** Saves the outcome: `ready` with its response, or `failed` with its reason. */
export async function savePreparationOutcome(
  db: Db,
  { keyId, idempotencyKey }: PreparationKey,
  outcome: { status: "ready" | "failed"; failure: string | null; response: object | null; at: Date },
): Promise<void> {
  await db
    .updateTable("swap_preparations")
    .set({
      status: outcome.status,
      failure: outcome.failure,
      response: outcome.response === null ? null : JSON.stringify(outcome.response),
      updated_at: outcome.at,
    })
    .where("key_id", "=", keyId)
    .where("idempotency_key", "=", idempotencyKey)
    .execute();
}

/**
 * The preparation saved under the key, if any, with its `response` parsed from the text first sent (its
 * keys in their first order, so a replay serializes to the same bytes).
 */
export async function findPreparation(
  db: Db,
  { keyId, idempotencyKey }: PreparationKey,
): Promise<PreparationRecord | undefined> {
  const row = await db
    .selectFrom("swap_preparations")
    .selectAll()
    .where("key_id", "=", keyId)
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row && { ...row, response: typeof row.response === "string" ? JSON.parse(row.response) : null };
}
