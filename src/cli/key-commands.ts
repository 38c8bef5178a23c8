import { BUILDER_SCOPES, type BuilderScope, builderKeys, createBuilderKey } from "../auth/keys.ts";
import { findWorkspace, type WorkspaceView } from "../auth/workspace-views.ts";
import { activateIfRegistered } from "../builders/activation.ts";
import { OperatorError } from "./cli-errors.ts";
import { type KeyInput, keyCommands, parseScopes } from "./key-family-commands.ts";
import type { OperatorContext } from "./operator-context.ts";

/** `junction key create|list|revoke`: a workspace's builder keys (docs/rules.md, auth rules 2-4). */
export const builderKeyCommands = keyCommands({
  family: builderKeys,
  command: "key",
  column: { title: "SCOPES", width: 26, cell: (key) => key.scopes.join(",") },
  permission: (key) => ["scopes", key.scopes.join(",")],
  empty: "the workspace has no keys yet (junction key create --workspace <id or code> ...)",
});

/** Checks `key create` flags before anything is opened; a bad value is a usage error. */
export function checkKeyInput(input: {
  workspace: string;
  name: string;
  scopes: string;
  expires?: string;
}): KeyInput<BuilderScope> & { workspace: string } {
  const scopes = parseScopes(input.scopes, BUILDER_SCOPES, "key create");
  return { workspace: input.workspace, ...builderKeyCommands.checkInput({ ...input, scopes }) };
}

/**
 * `junction key create`: a server-side key for a workspace, shown in full once (docs/rules.md, auth rule 2).
 * Keys with `quote` or `swap` scope need the builder ID activated (docs/rules.md, auth rule 4): before
 * refusing one, the registry is read (when the chain answers) so a confirmed registration activates at once.
 */
export async function createKeyCommand(
  ctx: OperatorContext,
  input: KeyInput<BuilderScope> & { workspace: string },
): Promise<void> {
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
  const key = await createBuilderKey(ctx.db, {
    workspaceId: workspace.id,
    name,
    scopes,
    ...(expiresAt ? { expiresAt } : {}),
  });
  await builderKeyCommands.created(
    ctx,
    { ...key, name, shown: { scopes: key.scopes } },
    { id: workspace.id, label: workspace.code ?? workspace.name },
  );
}

/** `junction key list`: the workspace's keys with status; never a secret or a hash. */
export async function listKeysCommand(ctx: OperatorContext, input: { workspace: string }): Promise<void> {
  await builderKeyCommands.list(ctx, await requireWorkspace(ctx, input.workspace));
}

/** The workspace an operator names by id or builder code; an operator error when there is none. */
export async function requireWorkspace(ctx: OperatorContext, ref: string): Promise<WorkspaceView> {
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
