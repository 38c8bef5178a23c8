/**
 * Repository of indexer leases (migration 0010): which process indexes the chain for every process sharing
 * the database. Times are the database's clock, so machines with skewed clocks agree on expiry.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

/**
 * Takes or renews the lease `name` for `holder` for `ttlMs`: it succeeds when the lease is free, expired or
 * already `holder`'s. Returns whether `holder` holds it now.
 */
export async function claimLease(db: Db, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const expiresAt = sql<Date>`now() + make_interval(secs => ${ttlMs / 1000})`;
  const row = await db
    .insertInto("indexer_leases")
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet({ holder, expires_at: expiresAt })
        .where((eb) =>
          eb.or([
            eb("indexer_leases.holder", "=", holder),
            eb("indexer_leases.expires_at", "<", sql<Date>`now()`),
          ]),
        ),
    )
    .returning("holder")
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Gives the lease up at once (a graceful stop), so another process takes over without waiting for expiry. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom("indexer_leases").where("name", "=", name).where("holder", "=", holder).execute();
}
