import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.ts";

/** A workspace as operator commands show it. */
export type WorkspaceView = {
  id: string;
  name: string;
  code: string | null;
  activated: boolean;
  activatedAt: Date | null;
  plan: string;
  createdAt: Date;
};

/** A key as listings show it: never its secret nor its hash. */
export type KeyView = {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  status: "active" | "expired" | "revoked";
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

const WORKSPACE_COLUMNS = ["id", "name", "builder_code", "activated_at", "plan", "created_at"] as const;

/** Timestamps arrive as Date from both drivers; typed loosely because schema.ts nests its column types. */
type When = unknown;
const asDate = (value: When): Date => (value instanceof Date ? value : new Date(String(value)));

type WorkspaceRow = {
  id: string;
  name: string;
  builder_code: string | null;
  activated_at: When | null;
  plan: string;
  created_at: When;
};

const toWorkspace = (row: WorkspaceRow): WorkspaceView => ({
  id: row.id,
  name: row.name,
  code: row.builder_code,
  activated: row.activated_at !== null,
  activatedAt: row.activated_at ? asDate(row.activated_at) : null,
  plan: row.plan,
  createdAt: asDate(row.created_at),
});

/** A workspace by its id or its builder code (a code is at most 32 characters, an id is a UUID). */
export async function findWorkspace(db: Kysely<Database>, ref: string): Promise<WorkspaceView | undefined> {
  const row = await db
    .selectFrom("workspaces")
    .select(WORKSPACE_COLUMNS)
    .where((eb) => eb.or([eb("id", "=", ref), eb("builder_code", "=", ref)]))
    .executeTakeFirst();
  return row ? toWorkspace(row) : undefined;
}

/** Every workspace with its count of usable keys, oldest first. */
export async function listWorkspaces(
  db: Kysely<Database>,
  now = new Date(),
): Promise<(WorkspaceView & { activeKeys: number })[]> {
  const rows = await db
    .selectFrom("workspaces")
    .select(WORKSPACE_COLUMNS)
    .select((eb) =>
      eb
        .selectFrom("api_keys")
        .select(sql<string>`count(*)`.as("n"))
        .whereRef("api_keys.workspace_id", "=", "workspaces.id")
        .where("api_keys.revoked_at", "is", null)
        .where((k) => k.or([k("api_keys.expires_at", "is", null), k("api_keys.expires_at", ">", now)]))
        .as("active_keys"),
    )
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...toWorkspace(row), activeKeys: Number(row.active_keys ?? 0) }));
}

/** The workspace's keys, newest first. */
export async function listKeys(
  db: Kysely<Database>,
  workspaceId: string,
  now = new Date(),
): Promise<KeyView[]> {
  const rows = await db
    .selectFrom("api_keys")
    .select(["id", "prefix", "name", "scopes", "expires_at", "revoked_at", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => toKey(row, now));
}

/** One key by its id or its visible prefix (`jct_<id>`). */
export async function findKey(
  db: Kysely<Database>,
  ref: string,
  now = new Date(),
): Promise<(KeyView & { workspaceId: string }) | undefined> {
  const id = ref.startsWith("jct_") ? ref.slice(4) : ref;
  const row = await db
    .selectFrom("api_keys")
    .select(["id", "prefix", "name", "scopes", "expires_at", "revoked_at", "created_at", "workspace_id"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...toKey(row, now), workspaceId: row.workspace_id } : undefined;
}

function toKey(
  row: {
    id: string;
    prefix: string;
    name: string;
    scopes: string[];
    expires_at: When | null;
    revoked_at: When | null;
    created_at: When;
  },
  now: Date,
): KeyView {
  const expiresAt = row.expires_at ? asDate(row.expires_at) : null;
  const revokedAt = row.revoked_at ? asDate(row.revoked_at) : null;
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: row.scopes,
    status: revokedAt ? "revoked" : expiresAt && expiresAt <= now ? "expired" : "active",
    expiresAt,
    revokedAt,
    createdAt: asDate(row.created_at),
  };
}
