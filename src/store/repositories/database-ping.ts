/**
 * The cheapest round trip to the database, for readiness: it touches no table, so it answers whenever the
 * server (or embedded PGlite) can serve a statement at all.
 */
import { sql } from "kysely";
import type { Db } from "../schema.ts";

/** Resolves once the database has answered `select 1`; rejects with the driver's error otherwise. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
