/**
 * Repository of the `service_secrets` table: secrets every process of a deployment must share. Repositories
 * live in src/store, below every domain that shares a table: domain code calls them, src/api never does.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../schema.ts";

/**
 * A 32-byte secret shared by every process using this database: created once by whichever process asks
 * first (insert-if-absent), then read by all. History cursors are signed with it, so a cursor issued by one
 * process verifies in another.
 */
export async function sharedSecret(db: Db, name: string): Promise<Uint8Array> {
  await db
    .insertInto("service_secrets")
    .values({ name, value: randomBytes(32).toString("hex") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("service_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return Uint8Array.from(Buffer.from(row.value, "hex"));
}
