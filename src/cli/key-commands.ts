import { SCOPES, type Scope } from "../auth/api-key.ts";
import { createKey, revokeKey } from "../auth/keys.ts";
import { findKey, findWorkspace, listKeys, type WorkspaceView } from "../auth/workspace-views.ts";
import { activateIfRegistered } from "../builders/activation.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { parseExpiry } from "./expiry.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

const MAX_NAME_LENGTH = 200;

export type KeyInput = { workspace: string; name: string; scopes: Scope[]; expiresAt?: Date };

/** Checks `key create` flags before anything is opened; a bad value is a usage error. */
export function checkKeyInput(input: {
  workspace: string;
  name: string;
  scopes: string;
  expires?: string;
}): KeyInput {
  const name = input.name.trim();
  if (name.length > MAX_NAME_LENGTH)
    throw new UsageError(`--name is longer than ${MAX_NAME_LENGTH} characters`, "key create");
  return {
    workspace: input.workspace,
    name,
    scopes: parseScopes(input.scopes),
    ...(input.expires === undefined ? {} : { expiresAt: parseExpiry(input.expires) }),
  };
}

/**
 * `junction key create`: a server-side key for a workspace, shown in full once (docs/rules.md, auth rule 2).
 * Keys with `quote` or `swap` scope need the builder ID activated (docs/rules.md, auth rule 4): before
 * refusing one, the registry is read (when the chain answers) so a confirmed registration activates at once.
 */
export async function createKeyCommand(ctx: OperatorContext, input: KeyInput): Promise<void> {
  const { name, scopes, expiresAt } = input;
  let workspace = await requireWorkspace(ctx, input.workspace);

  const needsActivation = scopes.some((scope) => scope === "quote" || scope === "swap");
  if (needsActivation && !workspace.activated) {
    const why = await checkActivation(ctx, workspace);
    workspace = (await findWorkspace(ctx.db, workspace.id))!;
    if (!workspace.activated) {
      throw new OperatorError(
        `keys with quote or swap scope need the workspace's builder ID activated on chain first: ${why}`,
      );
    }
  }
  const key = await createKey(ctx.db, {
    workspaceId: workspace.id,
    name,
    scopes,
    ...(expiresAt ? { expiresAt } : {}),
  });
  const view = {
    id: key.id,
    prefix: key.prefix,
    name,
    workspaceId: workspace.id,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
    secret: key.secret,
  };
  ctx.out.result({ key: view, note: "the secret is shown once; keep it on your backend" }, [
    "key created; the full key is shown once, keep it server-side:",
    `  ${key.secret}`,
    ...fields([
      ["id", key.id],
      ["prefix", key.prefix],
      ["workspace", `${workspace.id} (${workspace.code ?? workspace.name})`],
      ["scopes", key.scopes.join(",")],
      ["expires", key.expiresAt ? key.expiresAt.toISOString() : "never"],
    ]),
  ]);
}

/** `junction key list`: the workspace's keys with status; never a secret or a hash. */
export async function listKeysCommand(ctx: OperatorContext, input: { workspace: string }): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const keys = await listKeys(ctx.db, workspace.id);
  const human =
    keys.length === 0
      ? [`workspace ${workspace.code ?? workspace.id} has no keys yet`]
      : [
          `${"PREFIX".padEnd(16)}  ${"STATUS".padEnd(7)}  ${"SCOPES".padEnd(26)}  ${"EXPIRES".padEnd(24)}  NAME`,
          ...keys.map(
            (k) =>
              `${k.prefix.padEnd(16)}  ${k.status.padEnd(7)}  ${k.scopes.join(",").padEnd(26)}  ${(k.expiresAt?.toISOString() ?? "never").padEnd(24)}  ${k.name}`,
          ),
        ];
  ctx.out.result({ workspace, keys }, human);
}

/** `junction key revoke`: effective on the key's very next request. Revoking twice is not an error. */
export async function revokeKeyCommand(ctx: OperatorContext, input: { key: string }): Promise<void> {
  const key = await findKey(ctx.db, input.key);
  if (!key) throw new OperatorError(`no key ${input.key}`);
  const revoked = await revokeKey(ctx.db, key.id);
  const after = (await findKey(ctx.db, key.id))!;
  ctx.out.result({ key: after, alreadyRevoked: !revoked }, [
    revoked ? `key ${after.prefix} revoked` : `key ${after.prefix} was already revoked`,
    ...fields([["revoked at", after.revokedAt?.toISOString() ?? "-"]]),
  ]);
}

function parseScopes(value: string): Scope[] {
  const scopes = value
    .split(",")
    .map((scope) => scope.trim())
    .filter((scope) => scope !== "");
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--scopes takes a comma-separated list of ${SCOPES.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
      "key create",
    );
  }
  return [...new Set(scopes)] as Scope[];
}

async function requireWorkspace(ctx: OperatorContext, ref: string): Promise<WorkspaceView> {
  const workspace = await findWorkspace(ctx.db, ref);
  if (!workspace)
    throw new OperatorError(`no workspace with id or builder code ${ref} (see junction workspace list)`);
  return workspace;
}

/** Why a code registered by another wallet than the workspace's does not activate it. */
export function ownerMismatch(code: string, check: { builder: { owner: string }; boundTo: string | null }) {
  return check.boundTo === null
    ? `${code} is registered on chain by ${check.builder.owner}, but the workspace is bound to no wallet yet; bind it with junction workspace activate --code ${code} --owner <the registering wallet> ...`
    : `${code} is registered on chain by ${check.builder.owner}, not by ${check.boundTo}, the wallet this workspace is bound to; the workspace stays inactive`;
}

/** Reads the registry for the workspace's code, activating it when registered and enabled; says why not. */
async function checkActivation(ctx: OperatorContext, workspace: WorkspaceView): Promise<string> {
  if (!workspace.code) return "the workspace has no builder code";
  const chain = await ctx.chain();
  if (!chain.reachable) {
    return `${workspace.code} is not activated and the registry could not be checked (${chain.reason})`;
  }
  const check = await activateIfRegistered(chain.client, ctx.db, chain.registry, workspace.code);
  if (check.status === "enabled") {
    ctx.out.note(`builder code ${workspace.code} is registered on chain and enabled: workspace activated`);
    return "activated";
  }
  if (check.status === "suspended")
    return `${workspace.code} is registered on chain but suspended by governance`;
  if (check.status === "owner-mismatch") return ownerMismatch(workspace.code, check);
  return `${workspace.code} is not registered on chain yet; prepare the registration with junction workspace activate --code ${workspace.code} --owner <wallet> --recipient <payout wallet> --fee <bps>`;
}
