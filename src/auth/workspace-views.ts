import { activeKeysPerWorkspace } from "../store/repositories/keys.ts";
import { findWorkspaceRow, listWorkspaceRows, workspacesOwnedBy } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import type { KeyView as FamilyKeyView } from "./key-family.ts";
import { asDate } from "./key-lifecycle.ts";
import { type BuilderScope, builderKeys } from "./keys.ts";

/** A workspace as operator commands show it. */
export type WorkspaceView = {
  id: string;
  name: string;
  code: string | null;
  activated: boolean;
  activatedAt: Date | null;
  plan: string;
  createdAt: Date;
  /** The wallet the workspace is bound to (lower-case), null until bound. */
  owner: string | null;
};

/** A builder key as listings show it: never its secret nor its hash. */
export type KeyView = FamilyKeyView<{ scopes: BuilderScope[] }>;

/** Timestamps arrive as Date from both drivers; typed loosely because schema.ts nests its column types. */
type When = unknown;

type WorkspaceRow = {
  id: string;
  name: string;
  builder_code: string | null;
  activated_at: When | null;
  plan: string;
  created_at: When;
  owner: string | null;
};

const toWorkspace = (row: WorkspaceRow): WorkspaceView => ({
  id: row.id,
  name: row.name,
  code: row.builder_code,
  activated: row.activated_at !== null,
  activatedAt: row.activated_at ? asDate(row.activated_at) : null,
  plan: row.plan,
  createdAt: asDate(row.created_at),
  owner: row.owner,
});

/** A workspace by its id or its builder code (a code is at most 32 characters, an id is a UUID). */
export async function findWorkspace(db: Db, ref: string): Promise<WorkspaceView | undefined> {
  const row = await findWorkspaceRow(db, ref);
  return row ? toWorkspace(row) : undefined;
}

/** The workspaces bound to `owner` (any case), oldest first. */
export async function listWorkspacesOwnedBy(db: Db, owner: string): Promise<WorkspaceView[]> {
  return (await workspacesOwnedBy(db, owner.toLowerCase())).map(toWorkspace);
}

/** Every workspace with its count of usable keys, oldest first. */
export async function listWorkspaces(
  db: Db,
  now = new Date(),
): Promise<(WorkspaceView & { activeKeys: number })[]> {
  const [rows, activeKeys] = await Promise.all([listWorkspaceRows(db), activeKeysPerWorkspace(db, now)]);
  return rows.map((row) => ({ ...toWorkspace(row), activeKeys: activeKeys.get(row.id) ?? 0 }));
}

/** The workspace's keys, newest first. */
export async function listKeys(db: Db, workspaceId: string, now = new Date()): Promise<KeyView[]> {
  return builderKeys.list(db, { workspaceId, now });
}

/** One key by its id or its visible prefix (`jct_<id>`). */
export async function findKey(
  db: Db,
  ref: string,
  now = new Date(),
): Promise<(KeyView & { workspaceId: string }) | undefined> {
  const key = await builderKeys.find(db, ref, now);
  return key ? { ...key, workspaceId: key.workspaceId! } : undefined;
}
