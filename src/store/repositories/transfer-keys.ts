/**
 * Repository of the `transfer_keys` table: transfer-estimate customer keys (found by hash; listings never
 * carry the hash). Repositories live in src/store, below every domain that shares a table: domain code calls
 * them, src/api never does.
 */
import type { Db } from "../schema.ts";

export async function insertTransferKey(
  db: Db,
  key: {
    id: string;
    name: string;
    prefix: string;
    keyHash: string;
    scopes: readonly string[];
    expiresAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto("transfer_keys")
    .values({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.keyHash,
      scopes: [...key.scopes],
      expires_at: key.expiresAt,
    })
    .execute();
}

/** Sets `revoked_at` unless already set; true when it changed. */
export async function revokeTransferKeyRow(db: Db, keyId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("transfer_keys")
    .set({ revoked_at: at })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The key with this hash. */
export async function transferKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom("transfer_keys")
    .select(["id", "name", "scopes", "expires_at", "revoked_at"])
    .where("key_hash", "=", keyHash)
    .executeTakeFirst();
}

const LISTED = ["id", "prefix", "name", "scopes", "expires_at", "revoked_at", "created_at"] as const;

/** Every transfer key (never its hash), newest first. */
export async function listTransferKeyRows(db: Db) {
  return db.selectFrom("transfer_keys").select(LISTED).orderBy("created_at", "desc").orderBy("id").execute();
}

/** One key by its id (never its hash). */
export async function transferKeyRow(db: Db, id: string) {
  return db.selectFrom("transfer_keys").select(LISTED).where("id", "=", id).executeTakeFirst();
}
