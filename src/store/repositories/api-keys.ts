/**
 * Repository of the `api_keys` table (keys are found by hash, with the workspace they act for). Repositories
 * live in src/store, below every domain that shares a table: domain code calls them, src/api never does.
 */
import type { Db } from "../schema.ts";

export async function insertApiKey(
  db: Db,
  key: {
    id: string;
    workspaceId: string;
    name: string;
    prefix: string;
    keyHash: string;
    scopes: string[];
    expiresAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto("api_keys")
    .values({
      id: key.id,
      workspace_id: key.workspaceId,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.keyHash,
      scopes: key.scopes,
      expires_at: key.expiresAt,
    })
    .execute();
}

/** Sets `revoked_at` unless already set; true when it changed. */
export async function revokeApiKey(db: Db, keyId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: at })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The key with this hash, joined with its workspace's builder code, plan and activation. */
export async function apiKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom("api_keys")
    .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
    .select([
      "api_keys.id",
      "api_keys.workspace_id",
      "api_keys.scopes",
      "api_keys.expires_at",
      "api_keys.revoked_at",
      "workspaces.builder_code",
      "workspaces.plan",
      "workspaces.activated_at",
    ])
    .where("api_keys.key_hash", "=", keyHash)
    .executeTakeFirst();
}

/** A workspace's keys (never their hash), newest first. */
export async function listApiKeyRows(db: Db, workspaceId: string) {
  return db
    .selectFrom("api_keys")
    .select(["id", "prefix", "name", "scopes", "expires_at", "revoked_at", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
}

/** One key by its id (never its hash). */
export async function apiKeyRow(db: Db, id: string) {
  return db
    .selectFrom("api_keys")
    .select(["id", "prefix", "name", "scopes", "expires_at", "revoked_at", "created_at", "workspace_id"])
    .where("id", "=", id)
    .executeTakeFirst();
}
