/**
 * Repository of the `builder_quotes` table: quotes as issued, with the exact transaction a swap preparation
 * returns. Repositories live in src/store, below every domain that shares a table: domain code calls them,
 * src/api never does.
 */
import type { Insertable, Selectable } from "kysely";
import type { BuilderQuoteTable, Db } from "../schema.ts";

export type BuilderQuoteRecord = Selectable<BuilderQuoteTable>;
export type NewBuilderQuoteRecord = Insertable<BuilderQuoteTable>;

export async function insertBuilderQuote(db: Db, quote: NewBuilderQuoteRecord): Promise<void> {
  await db.insertInto("builder_quotes").values(quote).execute();
}

/**
 * A saved builder quote, only for the key that issued it: preparation and receipts answer 404 for another
 * key's quote exactly as for a missing one (docs/rules.md, errors: builder).
 */
export async function quoteForKey(
  db: Db,
  quoteId: string,
  keyId: string,
): Promise<BuilderQuoteRecord | undefined> {
  return db
    .selectFrom("builder_quotes")
    .selectAll()
    .where("id", "=", quoteId)
    .where("key_id", "=", keyId)
    .executeTakeFirst();
}

/** The highest block a saved builder quote was priced at, if any. */
export async function highestQuoteBlock(db: Db): Promise<bigint | undefined> {
  const row = await db
    .selectFrom("builder_quotes")
    .select((eb) => eb.fn.max("block_number").as("block"))
    .executeTakeFirst();
  return row?.block === null || row?.block === undefined ? undefined : BigInt(row.block);
}

/** What settlement events need of the quotes with these ids (unknown ids are left out). */
export async function quoteOwners(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("builder_quotes")
    .select(["id", "workspace_id", "key_id", "builder_code", "builder_recipient", "policy_version"])
    .where("id", "in", ids)
    .execute();
}
