import { randomUUID } from "node:crypto";
import { apiKeyByHash, insertApiKey, revokeApiKey } from "../store/repositories/api-keys.ts";
import {
  activateWorkspace,
  bindWorkspaceOwner,
  insertWorkspace,
  workspaceActivation,
} from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { generateApiKey, hashApiKey, parseApiKey, type Scope } from "./api-key.ts";

/** A request that breaks the key rules (docs/rules.md, auth rule 4): the operator gets this message. */
export class KeyPolicyError extends Error {
  override name = "KeyPolicyError";
}

export type Workspace = {
  id: string;
  name: string;
  builderCode: string | null;
  activated: boolean;
  owner: string | null;
};

/** A new workspace; `owner` (any case, stored lower-case) binds it to a wallet now (see bindOwner). */
export async function createWorkspace(
  db: Db,
  input: { name: string; builderCode?: string; owner?: string },
): Promise<Workspace> {
  const id = randomUUID();
  const owner = input.owner?.toLowerCase() ?? null;
  await insertWorkspace(db, { id, name: input.name, builderCode: input.builderCode ?? null, owner });
  return { id, name: input.name, builderCode: input.builderCode ?? null, activated: false, owner };
}

/**
 * Binds the workspace to the wallet that will register its code (docs/rules.md, ours: activation binding);
 * a workspace is bound once. Returns the owner it is bound to afterwards (lower-case), which differs from
 * `owner` when it was bound to another wallet before; undefined when there is no such workspace.
 */
export async function bindOwner(db: Db, workspaceId: string, owner: string): Promise<string | undefined> {
  return bindWorkspaceOwner(db, workspaceId, owner.toLowerCase());
}

/** Marks the workspace holding `builderCode` active: its builder ID is registered and enabled on chain. */
export async function markActivated(db: Db, builderCode: string, at: Date): Promise<boolean> {
  return activateWorkspace(db, builderCode, at);
}

export type CreatedKey = {
  id: string;
  prefix: string;
  /** The full key, shown once. */
  secret: string;
  scopes: Scope[];
  expiresAt: Date | null;
};

/**
 * Creates a key for a workspace. Keys with `quote` or `swap` scope need the workspace's builder ID to be
 * activated on chain first; `tokens` and `receipts` keys do not (docs/rules.md, auth rule 4).
 */
export async function createKey(
  db: Db,
  input: { workspaceId: string; name: string; scopes: Scope[]; expiresAt?: Date },
): Promise<CreatedKey> {
  if (input.scopes.length === 0) throw new KeyPolicyError("a key needs at least one scope");
  const workspace = await workspaceActivation(db, input.workspaceId);
  if (!workspace) throw new KeyPolicyError(`no workspace ${input.workspaceId}`);
  if (input.scopes.some((s) => s === "quote" || s === "swap") && !workspace.activatedAt) {
    throw new KeyPolicyError(
      "keys with quote or swap scope need the workspace's builder ID activated on chain first",
    );
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
    throw new KeyPolicyError("the expiry is in the past");
  const key = generateApiKey();
  await insertApiKey(db, {
    id: key.id,
    workspaceId: input.workspaceId,
    name: input.name,
    prefix: key.prefix,
    keyHash: key.hash,
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expiresAt ?? null,
  });
  return {
    id: key.id,
    prefix: key.prefix,
    secret: key.secret,
    scopes: input.scopes,
    expiresAt: input.expiresAt ?? null,
  };
}

/** Revokes a key; effective for the very next request (keys are checked against the database each time). */
export async function revokeKey(db: Db, keyId: string, at = new Date()): Promise<boolean> {
  return revokeApiKey(db, keyId, at);
}

/** Who is calling: the key, its scopes and its workspace (builder code, plan, activation). */
export type Principal = {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
  builderCode: string | null;
  plan: string;
  activated: boolean;
};
export type AuthFailure = "missing" | "malformed" | "unknown" | "expired" | "revoked";

/** Resolves a presented key to its workspace and scopes, or says why it is refused. */
export async function authenticate(
  db: Db,
  presented: string | undefined,
  now = new Date(),
): Promise<Principal | { failure: AuthFailure }> {
  if (!presented) return { failure: "missing" };
  if (!parseApiKey(presented)) return { failure: "malformed" };
  const key = await apiKeyByHash(db, hashApiKey(presented));
  if (!key) return { failure: "unknown" };
  if (key.revoked_at) return { failure: "revoked" };
  if (key.expires_at && new Date(key.expires_at).getTime() <= now.getTime()) return { failure: "expired" };
  return {
    keyId: key.id,
    workspaceId: key.workspace_id,
    scopes: key.scopes as Scope[],
    builderCode: key.builder_code,
    plan: key.plan,
    activated: key.activated_at !== null,
  };
}
