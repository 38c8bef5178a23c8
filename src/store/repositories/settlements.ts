/**
 * Repository of the `settlements` table: verified, finalized attributed settlements, one per quote.
 * Repositories live in src/store, below every domain that shares a table: domain code calls them, src/api
 * never does.
 */
import type { Insertable, Selectable } from "kysely";
import type { Db, SettlementTable } from "../schema.ts";

export type SettlementRecord = Selectable<SettlementTable>;

/** The settlement recorded for the quote, if any. */
export async function settlementOfQuote(db: Db, quoteId: string): Promise<SettlementRecord | undefined> {
  return db.selectFrom("settlements").selectAll().where("quote_id", "=", quoteId).executeTakeFirst();
}

/** Records a settlement; a quote already recorded keeps its first record. */
export async function insertSettlement(db: Db, settlement: Insertable<SettlementTable>): Promise<void> {
  await db
    .insertInto("settlements")
    .values(settlement)
    .onConflict((oc) => oc.column("quote_id").doNothing())
    .execute();
}

/** The highest block a recorded settlement is in, if any. */
export async function highestSettlementBlock(db: Db): Promise<bigint | undefined> {
  const row = await db
    .selectFrom("settlements")
    .select((eb) => eb.fn.max("block_number").as("block"))
    .executeTakeFirst();
  return row?.block === null || row?.block === undefined ? undefined : BigInt(row.block);
}
