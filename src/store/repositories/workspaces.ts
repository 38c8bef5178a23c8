/**
 * Repository of the `workspaces` table. Repositories live in src/store, below every domain, because domains
 * share tables (auth and builders both read workspaces): domain code calls them, src/api never does.
 */
import type { Db } from "../schema.ts";

export async function insertWorkspace(
  db: Db,
  workspace: { id: string; name: string; builderCode: string | null; owner?: string | null },
): Promise<void> {
  await db
    .insertInto("workspaces")
    .values({
      id: workspace.id,
      name: workspace.name,
      builder_code: workspace.builderCode,
      owner: workspace.owner ?? null,
    })
    .execute();
}

/**
 * Binds the workspace to `owner` (lower-case hex) unless it is bound already; returns the owner it is bound
 * to afterwards, or undefined when there is no such workspace.
 */
export async function bindWorkspaceOwner(db: Db, id: string, owner: string): Promise<string | undefined> {
  await db.updateTable("workspaces").set({ owner }).where("id", "=", id).where("owner", "is", null).execute();
  const row = await db.selectFrom("workspaces").select("owner").where("id", "=", id).executeTakeFirst();
  return row ? (row.owner ?? undefined) : undefined;
}

/** The workspaces bound to `owner` (lower-case hex), oldest first. */
export async function workspacesOwnedBy(db: Db, owner: string) {
  return db
    .selectFrom("workspaces")
    .select(WORKSPACE_COLUMNS)
    .where("owner", "=", owner)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Sets `activated_at` on the workspace holding `builderCode` unless already set; true when it changed. */
export async function activateWorkspace(db: Db, builderCode: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("workspaces")
    .set({ activated_at: at })
    .where("builder_code", "=", builderCode)
    .where("activated_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The workspace's activation time (null while waiting), or undefined when there is no such workspace. */
export async function workspaceActivation(
  db: Db,
  id: string,
): Promise<{ activatedAt: Date | null } | undefined> {
  const row = await db
    .selectFrom("workspaces")
    .select(["id", "activated_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { activatedAt: row.activated_at };
}

/** The builder codes of workspaces activated, or not activated yet. */
export async function builderCodes(db: Db, which: { activated: boolean }): Promise<string[]> {
  const rows = await db
    .selectFrom("workspaces")
    .select("builder_code")
    .where("builder_code", "is not", null)
    .where("activated_at", which.activated ? "is not" : "is", null)
    .execute();
  return rows.flatMap((row) => (row.builder_code ? [row.builder_code] : []));
}

/** The workspace holding `builderCode`, if any. */
export async function workspaceByBuilderCode(
  db: Db,
  builderCode: string,
): Promise<{ id: string; name: string; plan: string; owner: string | null } | undefined> {
  return db
    .selectFrom("workspaces")
    .select(["id", "name", "plan", "owner"])
    .where("builder_code", "=", builderCode)
    .executeTakeFirst();
}

/** The workspace's name; throws when it does not exist (callers hold one of its keys). */
export async function workspaceName(db: Db, id: string): Promise<string> {
  const row = await db.selectFrom("workspaces").select("name").where("id", "=", id).executeTakeFirstOrThrow();
  return row.name;
}

const WORKSPACE_COLUMNS = [
  "id",
  "name",
  "builder_code",
  "activated_at",
  "plan",
  "created_at",
  "owner",
] as const;

/** A workspace by its id or its builder code. */
export async function findWorkspaceRow(db: Db, ref: string) {
  return db
    .selectFrom("workspaces")
    .select(WORKSPACE_COLUMNS)
    .where((eb) => eb.or([eb("id", "=", ref), eb("builder_code", "=", ref)]))
    .executeTakeFirst();
}

/** Every workspace, oldest first. */
export async function listWorkspaceRows(db: Db) {
  return db.selectFrom("workspaces").select(WORKSPACE_COLUMNS).orderBy("created_at").orderBy("id").execute();
}

/** Sets the plan of the workspace with this id; true when a row changed. */
export async function setWorkspacePlan(db: Db, id: string, plan: string): Promise<boolean> {
  const result = await db.updateTable("workspaces").set({ plan }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Puts the workspace holding `builderCode` back to waiting for activation; true when it changed. */
export async function withdrawActivation(db: Db, builderCode: string): Promise<boolean> {
  const result = await db
    .updateTable("workspaces")
    .set({ activated_at: null })
    .where("builder_code", "=", builderCode)
    .where("activated_at", "is not", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
