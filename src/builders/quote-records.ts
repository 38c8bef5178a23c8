import type { Kysely, Selectable } from "kysely";
import type { BuilderQuoteTable, Database } from "../store/schema.ts";

export type BuilderQuoteRecord = Selectable<BuilderQuoteTable>;

/**
 * A saved builder quote, only for the key that issued it: preparation and receipts answer 404 for another
 * key's quote exactly as for a missing one (docs/rules.md, errors: builder, 404 "plan not found for this
 * key").
 */
export async function quoteForKey(
  db: Kysely<Database>,
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
