/**
 * Repository of the `keys` table: the API keys of every family (builder, partner, transfer), found by hash;
 * listings never carry the hash. Every query names the family, so one family's command never reaches
 * another's key. Repositories live in src/store, below every domain that shares a table: domain code calls
 * them, src/api never does.
 */
import { sql } from "kysely";
import type { Db, KeyFamilyName } from "../schema.ts";

export async function insertKey(
  db: Db,
  key: {
    id: string;
    family: KeyFamilyName;
    workspaceId: string | null;
    name: string;
    prefix: string;
    keyHash: string;
    scopes: readonly string[];
    expiresAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto("keys")
    .values({
      id: key.id,
      family: key.family,
      workspace_id: key.workspaceId,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.keyHash,
      scopes: [...key.scopes],
      expires_at: key.expiresAt,
    })
    .execute();
}

/** Sets `revoked_at` unless already set; true when it changed. */
export async function revokeKeyRow(db: Db, family: KeyFamilyName, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("keys")
    .set({ revoked_at: at })
    .where("family", "=", family)
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The key with this hash, with its workspace's builder code, plan and activation (null for no workspace). */
export async function keyByHash(db: Db, family: KeyFamilyName, keyHash: string) {
  return db
    .selectFrom("keys")
    .leftJoin("workspaces", "workspaces.id", "keys.workspace_id")
    .select([
      "keys.id",
      "keys.workspace_id",
      "keys.name",
      "keys.scopes",
      "keys.expires_at",
      "keys.revoked_at",
      "workspaces.builder_code",
      "workspaces.plan",
      "workspaces.activated_at",
    ])
    .where("keys.family", "=", family)
    .where("keys.key_hash", "=", keyHash)
    .executeTakeFirst();
}

const LISTED = [
  "id",
  "workspace_id",
  "prefix",
  "name",
  "scopes",
  "expires_at",
  "revoked_at",
  "created_at",
] as const;

/** A family's keys (of one workspace, when given), never their hash, newest first. */
export async function listKeyRows(db: Db, family: KeyFamilyName, workspaceId?: string) {
  let query = db.selectFrom("keys").select(LISTED).where("family", "=", family);
  if (workspaceId !== undefined) query = query.where("workspace_id", "=", workspaceId);
  return query.orderBy("created_at", "desc").orderBy("id").execute();
}

/** One key of the family by its id (never its hash). */
export async function keyRow(db: Db, family: KeyFamilyName, id: string) {
  return db
    .selectFrom("keys")
    .select(LISTED)
    .where("family", "=", family)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** How many keys of each workspace are neither revoked nor expired at `now` (workspaces without one absent). */
export async function activeKeysPerWorkspace(db: Db, now: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("keys")
    .select(["workspace_id", sql<string>`count(*)`.as("n")])
    .where("family", "=", "builder")
    .where("revoked_at", "is", null)
    .where((k) => k.or([k("expires_at", "is", null), k("expires_at", ">", now)]))
    .groupBy("workspace_id")
    .execute();
  return new Map(rows.map((row) => [row.workspace_id!, Number(row.n)]));
}
