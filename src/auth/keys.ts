import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.ts";
import { generateApiKey, hashApiKey, parseApiKey, type Scope } from "./api-key.ts";

/** A request that breaks the key rules (docs/rules.md, auth rule 4): the operator gets this message. */
export class KeyPolicyError extends Error {
  override name = "KeyPolicyError";
}

export type Workspace = { id: string; name: string; builderCode: string | null; activated: boolean };

export async function createWorkspace(
  db: Kysely<Database>,
  input: { name: string; builderCode?: string },
): Promise<Workspace> {
  const id = randomUUID();
  await db
    .insertInto("workspaces")
    .values({ id, name: input.name, builder_code: input.builderCode ?? null })
    .execute();
  return { id, name: input.name, builderCode: input.builderCode ?? null, activated: false };
}

/** Marks the workspace holding `builderCode` active: its builder ID is registered and enabled on chain. */
export async function markActivated(db: Kysely<Database>, builderCode: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable("workspaces")
    .set({ activated_at: at })
    .where("builder_code", "=", builderCode)
    .where("activated_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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
  db: Kysely<Database>,
  input: { workspaceId: string; name: string; scopes: Scope[]; expiresAt?: Date },
): Promise<CreatedKey> {
  if (input.scopes.length === 0) throw new KeyPolicyError("a key needs at least one scope");
  const workspace = await db
    .selectFrom("workspaces")
    .select(["id", "activated_at"])
    .where("id", "=", input.workspaceId)
    .executeTakeFirst();
  if (!workspace) throw new KeyPolicyError(`no workspace ${input.workspaceId}`);
  if (input.scopes.some((s) => s === "quote" || s === "swap") && !workspace.activated_at) {
    throw new KeyPolicyError(
      "keys with quote or swap scope need the workspace's builder ID activated on chain first",
    );
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
    throw new KeyPolicyError("the expiry is in the past");
  const key = generateApiKey();
  await db
    .insertInto("api_keys")
    .values({
      id: key.id,
      workspace_id: input.workspaceId,
      name: input.name,
      prefix: key.prefix,
      key_hash: key.hash,
      scopes: [...new Set(input.scopes)],
      expires_at: input.expiresAt ?? null,
    })
    .execute();
  return {
    id: key.id,
    prefix: key.prefix,
    secret: key.secret,
    scopes: input.scopes,
    expiresAt: input.expiresAt ?? null,
  };
}

/** Revokes a key; effective for the very next request (keys are checked against the database each time). */
export async function revokeKey(db: Kysely<Database>, keyId: string, at = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: at })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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
  db: Kysely<Database>,
  presented: string | undefined,
  now = new Date(),
): Promise<Principal | { failure: AuthFailure }> {
  if (!presented) return { failure: "missing" };
  if (!parseApiKey(presented)) return { failure: "malformed" };
  const key = await db
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
    .where("api_keys.key_hash", "=", hashApiKey(presented))
    .executeTakeFirst();
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
