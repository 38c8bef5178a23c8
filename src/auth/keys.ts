import { randomUUID } from "node:crypto";
import {
  activateWorkspace,
  bindWorkspaceOwner,
  insertWorkspace,
  workspaceActivation,
} from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { defineKeyFamily, KeyPolicyError } from "./key-family.ts";

/** What a builder key may call (docs/rules.md, auth rule 3). */
export const BUILDER_SCOPES = ["quote", "swap", "tokens", "receipts"] as const;
export type BuilderScope = (typeof BUILDER_SCOPES)[number];

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

/** Who is calling: the key, its scopes and its workspace (builder code, plan, activation). */
export type Principal = {
  keyId: string;
  workspaceId: string;
  scopes: BuilderScope[];
  builderCode: string | null;
  plan: string;
  activated: boolean;
};

/**
 * Builder keys (docs/rules.md, auth rules 2-3): `jct_…` in `x-api-key`, scoped, each of a workspace whose
 * plan rates it.
 */
export const builderKeys = defineKeyFamily({
  family: "builder",
  prefix: "jct",
  noun: "key",
  scopes: BUILDER_SCOPES,
  needsScope: true,
  principal: ({ keyId, scopes, workspace }): Principal => ({
    keyId,
    workspaceId: workspace!.id,
    scopes,
    builderCode: workspace!.builderCode,
    plan: workspace!.plan,
    activated: workspace!.activated,
  }),
  show: (scopes) => ({ scopes }),
});

export type CreatedKey = {
  id: string;
  prefix: string;
  /** The full key, shown once. */
  secret: string;
  scopes: BuilderScope[];
  expiresAt: Date | null;
};

/**
 * Creates a builder key for a workspace. Keys with `quote` or `swap` scope need the workspace's builder ID to be
 * activated on chain first; `tokens` and `receipts` keys do not (docs/rules.md, auth rule 4).
 */
export async function createBuilderKey(
  db: Db,
  input: { workspaceId: string; name: string; scopes: BuilderScope[]; expiresAt?: Date },
): Promise<CreatedKey> {
  const workspace = await workspaceActivation(db, input.workspaceId);
  if (!workspace) throw new KeyPolicyError(`no workspace ${input.workspaceId}`);
  if (input.scopes.some((s) => s === "quote" || s === "swap") && !workspace.activatedAt) {
    throw new KeyPolicyError(
      "keys with quote or swap scope need the workspace's builder ID activated on chain first",
    );
  }
  const key = await builderKeys.issue(db, input);
  return { id: key.id, prefix: key.prefix, secret: key.secret, scopes: key.scopes, expiresAt: key.expiresAt };
}
