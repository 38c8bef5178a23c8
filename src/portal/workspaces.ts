import type { Address, PublicClient } from "viem";
import { isAddress } from "viem";
import { KeyPolicyError } from "../auth/key-family.ts";
import {
  BUILDER_SCOPES,
  type BuilderScope,
  builderKeys,
  type CreatedKey,
  createBuilderKey,
  createWorkspace,
} from "../auth/keys.ts";
import { type WorkspaceUsage, workspaceUsage } from "../auth/workspace-usage.ts";
import {
  findKey,
  findWorkspace,
  type KeyView,
  listKeys,
  listWorkspacesOwnedBy,
  type WorkspaceView,
} from "../auth/workspace-views.ts";
import { activateIfRegistered } from "../builders/activation.ts";
import { BUILDER_CODE_PATTERN } from "../builders/builder-code.ts";
import { BUILDER_LIMITS } from "../builders/limits.ts";
import type { RegistryBuilder } from "../builders/registry-profile.ts";
import {
  registerTransaction,
  simulateRegistryTransaction,
  type UnsignedRegistryTransaction,
} from "../builders/registry-transactions.ts";
import { invalidInput, JunctionError } from "../errors/junction-error.ts";
import type { Db } from "../store/schema.ts";

/**
 * The developer portal's workspace operations for a signed-in wallet (docs/rules.md, ours: developer
 * portal): a wallet sees and changes only the workspaces bound to it. A workspace created here is bound to
 * its creator, so only that wallet's on-chain registration of its code activates it (BuilderRegistered.owner;
 * see builders/activation.ts). Keys are shown whole only in the answer that creates them.
 */
export type PortalDeps = {
  db: Db;
  client: Pick<PublicClient, "getLogs" | "getBlock" | "getBlockNumber" | "multicall" | "call">;
  registry: Address;
};

export const PORTAL_LIMITS = {
  nameLength: 200,
  keyNameLength: 100,
  /** Keys expire at most this many days ahead (a key without expiry is the operator CLI's). */
  keyExpiryDays: { min: 1, max: 365 },
  workspacesPerWallet: 20,
} as const;

/** A workspace's activation as the portal shows it. */
export type Activation =
  | { status: "active" }
  | { status: "waiting" }
  | { status: "suspended"; builder: RegistryBuilder }
  | { status: "owner-mismatch"; builder: RegistryBuilder };

/** Postgres unique_violation (SQLSTATE, never message text). */
const UNIQUE_VIOLATION = "23505";

export async function listOwnWorkspaces(db: Db, owner: Address): Promise<WorkspaceView[]> {
  return listWorkspacesOwnedBy(db, owner);
}

export async function createOwnWorkspace(
  db: Db,
  owner: Address,
  input: { name: string; code: string },
): Promise<WorkspaceView> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > PORTAL_LIMITS.nameLength)
    throw invalidInput("name", `1 to ${PORTAL_LIMITS.nameLength} characters`);
  if (!BUILDER_CODE_PATTERN.test(input.code))
    throw invalidInput("code", `must match ${BUILDER_CODE_PATTERN.source} (case-sensitive)`);
  if ((await listWorkspacesOwnedBy(db, owner)).length >= PORTAL_LIMITS.workspacesPerWallet)
    throw invalidInput("name", `a wallet holds at most ${PORTAL_LIMITS.workspacesPerWallet} workspaces`);
  if (await findWorkspace(db, input.code)) throw codeTaken(input.code);
  try {
    const created = await createWorkspace(db, { name, builderCode: input.code, owner });
    return (await findWorkspace(db, created.id))!;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw codeTaken(input.code);
    throw error;
  }
}

/** The wallet's workspace `id`; 404 for one that does not exist or is bound to another wallet. */
export async function ownWorkspace(db: Db, owner: Address, id: string): Promise<WorkspaceView> {
  const workspace = id.length <= 64 ? await findWorkspace(db, id) : undefined;
  if (!workspace || workspace.id !== id || workspace.owner !== owner.toLowerCase())
    throw new JunctionError("NOT_FOUND", "no such workspace for this wallet");
  return workspace;
}

/**
 * The workspace and its activation, read from the registry when not active yet: a registration confirmed
 * on chain activates the workspace on the next look (the activation follower does the same every 2 s), so
 * the portal's status updates by itself after confirmation.
 */
export async function workspaceStatus(
  deps: PortalDeps,
  owner: Address,
  id: string,
): Promise<{ workspace: WorkspaceView; activation: Activation }> {
  const workspace = await ownWorkspace(deps.db, owner, id);
  if (workspace.activated || !workspace.code) return { workspace, activation: activationOf(workspace) };
  const check = await activateIfRegistered(deps.client, deps.db, deps.registry, workspace.code);
  const now = (await findWorkspace(deps.db, id))!;
  switch (check.status) {
    case "enabled":
      return { workspace: now, activation: { status: "active" } };
    case "suspended":
    case "owner-mismatch":
      return { workspace: now, activation: { status: check.status, builder: check.builder } };
    default:
      return { workspace: now, activation: { status: "waiting" } };
  }
}

const activationOf = (workspace: WorkspaceView): Activation =>
  workspace.activated ? { status: "active" } : { status: "waiting" };

/**
 * The registry's `register` transaction for the signed-in wallet to sign (the service never signs),
 * simulated from that wallet first so a taken code or a fee above the cap is refused before anyone signs.
 */
export async function prepareActivation(
  deps: PortalDeps,
  owner: Address,
  id: string,
  input: { recipient: string; builderFeeBps: number },
): Promise<UnsignedRegistryTransaction & { from: Address }> {
  const workspace = await ownWorkspace(deps.db, owner, id);
  if (workspace.activated) throw new JunctionError("CODE_TAKEN", "the workspace is already active");
  if (!isAddress(input.recipient, { strict: true }) || BigInt(input.recipient) === 0n)
    throw invalidInput("recipient", "a non-zero address (EIP-55 checksum if mixed case)");
  const { min, max } = BUILDER_LIMITS.builderFeeBps;
  if (!Number.isInteger(input.builderFeeBps) || input.builderFeeBps < min || input.builderFeeBps > max)
    throw invalidInput("builderFeeBps", `an integer from ${min} to ${max}`);
  const tx = registerTransaction(deps.registry, {
    code: workspace.code!,
    recipient: input.recipient as Address,
    builderFeeBps: input.builderFeeBps,
  });
  const simulation = await simulateRegistryTransaction(deps.client, tx, owner);
  if (!simulation.ok) {
    if (simulation.error === "BuilderAlreadyRegistered")
      throw new JunctionError("CODE_TAKEN", `${workspace.code} is already registered on chain`);
    throw new JunctionError(
      "INVALID_REQUEST",
      `the registry would refuse this registration (${simulation.error}); nothing was signed`,
    );
  }
  return { ...tx, from: owner };
}

export async function listOwnKeys(db: Db, owner: Address, id: string): Promise<KeyView[]> {
  const workspace = await ownWorkspace(db, owner, id);
  return listKeys(db, workspace.id);
}

/** Creates a key; `secret` is in this answer only (docs/rules.md, auth rule 2: copy the key when shown). */
export async function createOwnKey(
  db: Db,
  owner: Address,
  id: string,
  input: { name: string; scopes: string[]; expiresInDays: number },
  now = new Date(),
): Promise<CreatedKey> {
  const workspace = await ownWorkspace(db, owner, id);
  const name = input.name.trim();
  if (name.length === 0 || name.length > PORTAL_LIMITS.keyNameLength)
    throw invalidInput("name", `1 to ${PORTAL_LIMITS.keyNameLength} characters`);
  if (input.scopes.length === 0 || input.scopes.some((s) => !BUILDER_SCOPES.includes(s as BuilderScope)))
    throw invalidInput("scopes", `one or more of ${BUILDER_SCOPES.join(", ")}`);
  const { min, max } = PORTAL_LIMITS.keyExpiryDays;
  if (!Number.isInteger(input.expiresInDays) || input.expiresInDays < min || input.expiresInDays > max)
    throw invalidInput("expiresInDays", `an integer from ${min} to ${max}`);
  try {
    return await createBuilderKey(db, {
      workspaceId: workspace.id,
      name,
      scopes: input.scopes as BuilderScope[],
      expiresAt: new Date(now.getTime() + input.expiresInDays * 86_400_000),
    });
  } catch (error) {
    if (error instanceof KeyPolicyError) throw new JunctionError("FORBIDDEN", error.message);
    throw error;
  }
}

export async function revokeOwnKey(db: Db, owner: Address, id: string, keyId: string): Promise<void> {
  const workspace = await ownWorkspace(db, owner, id);
  const key = keyId.length <= 64 ? await findKey(db, keyId) : undefined;
  if (!key || key.workspaceId !== workspace.id) throw new JunctionError("NOT_FOUND", "no such key");
  await builderKeys.revoke(db, key.id);
}

export async function ownUsage(db: Db, owner: Address, id: string): Promise<WorkspaceUsage> {
  const workspace = await ownWorkspace(db, owner, id);
  return workspaceUsage(db, workspace.id);
}

function codeTaken(code: string) {
  return new JunctionError("CODE_TAKEN", `builder code ${code} belongs to another workspace`);
}
