/**
 * Repository of the `partner_keys` table (keys are found by hash; listings never carry the hash).
 * Repositories live in src/store, below every domain that shares a table: domain code calls them, src/api
 * never does.
 */
import type { Db } from "../schema.ts";

export async function insertPartnerKey(
  db: Db,
  key: { id: string; name: string; prefix: string; keyHash: string; swap: boolean; expiresAt: Date | null },
): Promise<void> {
  await db
    .insertInto("partner_keys")
    .values({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.keyHash,
      swap: key.swap,
      expires_at: key.expiresAt,
    })
    .execute();
}

/** Sets `revoked_at` unless already set; true when it changed. */
export async function revokePartnerKeyRow(db: Db, keyId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("partner_keys")
    .set({ revoked_at: at })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The key with this hash. */
export async function partnerKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom("partner_keys")
    .select(["id", "name", "swap", "expires_at", "revoked_at"])
    .where("key_hash", "=", keyHash)
    .executeTakeFirst();
}

const LISTED = ["id", "prefix", "name", "swap", "expires_at", "revoked_at", "created_at"] as const;

/** Every partner key (never its hash), newest first. */
export async function listPartnerKeyRows(db: Db) {
  return db.selectFrom("partner_keys").select(LISTED).orderBy("created_at", "desc").orderBy("id").execute();
}

/** One key by its id (never its hash). */
export async function partnerKeyRow(db: Db, id: string) {
  return db.selectFrom("partner_keys").select(LISTED).where("id", "=", id).executeTakeFirst();
}
