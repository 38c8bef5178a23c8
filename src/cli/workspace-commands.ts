import { type Address, isAddress } from "viem";
import { bindOwner, createWorkspace } from "../auth/keys.ts";
import { PLANS, type WorkspacePlanName } from "../auth/plans.ts";
import { findWorkspace, listWorkspaces, type WorkspaceView } from "../auth/workspace-views.ts";
import { activateIfRegistered } from "../builders/activation.ts";
import { BUILDER_CODE_PATTERN } from "../builders/builder-code.ts";
import { BUILDER_LIMITS } from "../builders/limits.ts";
import type { RegistryBuilder } from "../builders/registry-profile.ts";
import { registerTransaction, simulateRegistryTransaction } from "../builders/registry-transactions.ts";
import { setWorkspacePlan } from "../store/repositories/workspaces.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { ownerMismatch } from "./key-commands.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

const MAX_NAME_LENGTH = 200;
/** Postgres unique_violation: the code is taken (checked by SQLSTATE, never by message). */
const UNIQUE_VIOLATION = "23505";

const activateHint = (code: string) =>
  `junction workspace activate --code ${code} --owner <wallet> --recipient <payout wallet> --fee <bps 0-${BUILDER_LIMITS.builderFeeBps.max}>`;

/** Checks `workspace create` flags before anything is opened; a bad value is a usage error. */
export function checkCreateInput(input: { name: string; code: string }): { name: string; code: string } {
  const name = input.name.trim();
  if (name.length > MAX_NAME_LENGTH)
    throw new UsageError(`--name is longer than ${MAX_NAME_LENGTH} characters`, "workspace create");
  if (!BUILDER_CODE_PATTERN.test(input.code))
    throw new UsageError(
      `--code must match ${BUILDER_CODE_PATTERN.source} (case-sensitive)`,
      "workspace create",
    );
  return { name, code: input.code };
}

/**
 * `junction workspace create`: a named workspace with its builder code. Creating it does not register
 * the code on chain (docs/rules.md, state rule 6); the output says how to activate it.
 */
export async function createWorkspaceCommand(
  ctx: OperatorContext,
  input: { name: string; code: string },
): Promise<void> {
  const { name, code } = input;
  const taken = await findWorkspace(ctx.db, code);
  if (taken?.code === code) throw codeTaken(taken);
  try {
    await createWorkspace(ctx.db, { name, builderCode: code });
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
      const winner = await findWorkspace(ctx.db, code);
      if (winner) throw codeTaken(winner);
    }
    throw error;
  }
  const workspace = (await findWorkspace(ctx.db, code))!;
  const next = `activate the builder ID: register ${code} on chain with ${activateHint(code)}; keys with quote or swap scope need it, tokens and receipts keys do not`;
  ctx.out.result({ workspace, next }, ["workspace created", ...workspaceFields(workspace), `next: ${next}`]);
}

export type ActivateInput = { code: string; owner: Address; recipient: Address; builderFeeBps: number };

/** Checks `workspace activate` flags before anything is opened; a bad value is a usage error. */
export function checkActivateInput(input: {
  code: string;
  owner: string;
  recipient: string;
  fee: string;
}): ActivateInput {
  const command = "workspace activate";
  if (!BUILDER_CODE_PATTERN.test(input.code))
    throw new UsageError(`--code must match ${BUILDER_CODE_PATTERN.source}`, command);
  if (!isAddress(input.owner, { strict: true }))
    throw new UsageError(
      "--owner must be a 0x-prefixed 20-byte address (EIP-55 checksum if mixed case)",
      command,
    );
  if (!isAddress(input.recipient, { strict: true }) || BigInt(input.recipient) === 0n) {
    throw new UsageError(
      "--recipient must be a non-zero 0x-prefixed 20-byte address (EIP-55 checksum if mixed case)",
      command,
    );
  }
  const { min, max } = BUILDER_LIMITS.builderFeeBps;
  if (!/^[0-9]{1,3}$/.test(input.fee) || Number(input.fee) < min || Number(input.fee) > max)
    throw new UsageError(`--fee must be an integer from ${min} to ${max} (bps)`, command);
  return {
    code: input.code,
    owner: input.owner as Address,
    recipient: input.recipient as Address,
    builderFeeBps: Number(input.fee),
  };
}

/**
 * `junction workspace activate`: prepares the registry `register` transaction for the builder's wallet to
 * sign (the service never signs), after simulating it from that wallet, so a taken code or a fee above the
 * cap is reported before anyone signs. A code already registered and enabled activates the workspace now.
 */
export async function activateWorkspaceCommand(ctx: OperatorContext, input: ActivateInput): Promise<void> {
  const workspace = await findWorkspace(ctx.db, input.code);
  if (!workspace || workspace.code !== input.code) {
    throw new OperatorError(
      `no workspace has builder code ${input.code}; create it first: junction workspace create --name <name> --code ${input.code}`,
    );
  }
  const chain = await ctx.chain();
  if (!chain.reachable) throw new OperatorError(`cannot prepare the registration: ${chain.reason}`);
  const tx = registerTransaction(chain.registry, input);

  // The workspace is bound to the wallet that registers its code; only that wallet's registration
  // activates it (docs/rules.md, ours: activation binding).
  const boundTo = await bindOwner(ctx.db, workspace.id, input.owner);
  if (boundTo !== input.owner.toLowerCase()) {
    throw new OperatorError(
      `workspace ${input.code} is bound to wallet ${boundTo}; only that wallet's registration activates it`,
    );
  }
  const check = await activateIfRegistered(chain.client, ctx.db, chain.registry, input.code);
  if (check.status === "owner-mismatch") throw new OperatorError(ownerMismatch(input.code, check));
  if (check.status === "suspended") {
    throw new OperatorError(
      `builder code ${input.code} is registered on chain (owner ${check.builder.owner}) but suspended by governance; the workspace stays inactive`,
    );
  }
  if (check.status === "enabled") {
    const activated = (await findWorkspace(ctx.db, input.code))!;
    const said = check.newlyActivated ? "workspace activated now" : "workspace was already activated";
    ctx.out.result(
      { workspace: activated, onChain: onChainView(check.builder), transaction: null, next: "create keys" },
      [
        `builder code ${input.code} is already registered on chain and enabled: ${said}`,
        ...fields([
          ["owner", check.builder.owner],
          ["recipient", check.builder.recipient],
          ["builder fee", `${check.builder.builderFeeBps} bps (cap ${check.builder.maxBuilderFeeBps})`],
        ]),
        `next: junction key create --workspace ${input.code} --name <name> --scopes quote,swap,tokens,receipts`,
      ],
    );
    return;
  }

  const owner = input.owner;
  const simulation = await simulateRegistryTransaction(chain.client, tx, owner);
  if (!simulation.ok) {
    const args = simulation.args.map(String).join(", ");
    throw new OperatorError(
      `the registry would revert this registration from ${owner}: ${simulation.error}(${args})${REVERT_HINTS[simulation.error] ?? ""}`,
    );
  }
  // Read again after binding, so the workspace shown carries the owner it was just bound to.
  const bound = (await findWorkspace(ctx.db, input.code))!;
  const transaction = { to: tx.to, data: tx.data, value: "0", chainId: tx.chainId, from: owner };
  const next = `sign and send this transaction from ${owner} (the service never signs); once it is confirmed the workspace is activated automatically (junction key create also checks the registry first)`;
  ctx.out.result(
    { workspace: bound, onChain: { registered: false }, simulation: { ok: true }, transaction, next },
    [
      `registration of ${input.code} prepared and simulated from ${owner}: it succeeds at the latest block`,
      ...fields([
        ["from", owner],
        ["to", tx.to],
        ["value", "0"],
        ["chainId", String(tx.chainId)],
        ["data", tx.data],
      ]),
      `next: ${next}`,
    ],
  );
}

/** `junction workspace list`: every workspace, its code, activation and count of usable keys. */
export async function listWorkspacesCommand(ctx: OperatorContext): Promise<void> {
  const workspaces = await listWorkspaces(ctx.db);
  const human =
    workspaces.length === 0
      ? ["no workspaces yet: junction workspace create --name <name> --code <BUILDER_CODE>"]
      : [
          `${"ID".padEnd(36)}  ${"CODE".padEnd(32)}  ${"ACTIVATED".padEnd(9)}  KEYS  NAME`,
          ...workspaces.map(
            (w) =>
              `${w.id.padEnd(36)}  ${(w.code ?? "-").padEnd(32)}  ${(w.activated ? "yes" : "no").padEnd(9)}  ${String(w.activeKeys).padStart(4)}  ${w.name}`,
          ),
        ];
  ctx.out.result({ workspaces }, human);
}

const PLAN_NAMES = Object.keys(PLANS) as WorkspacePlanName[];

/** Checks `workspace plan` flags before anything is opened; a bad value is a usage error. */
export function checkPlanInput(input: { code: string; plan: string }): {
  code: string;
  plan: WorkspacePlanName;
} {
  if (!PLAN_NAMES.includes(input.plan as WorkspacePlanName))
    throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(", ")}`, "workspace plan");
  return { code: input.code, plan: input.plan as WorkspacePlanName };
}

/**
 * `junction workspace plan`: moves a workspace (by id or builder code) to another plan. Every process reads
 * the plan with each request's key, so the new limits apply to the next request; counters already spent in
 * the current windows stay spent.
 */
export async function setPlanCommand(
  ctx: OperatorContext,
  input: { code: string; plan: WorkspacePlanName },
): Promise<void> {
  const workspace = await findWorkspace(ctx.db, input.code);
  if (!workspace) throw new OperatorError(`no workspace has id or builder code ${input.code}`);
  const previous = workspace.plan;
  if (previous !== input.plan) await setWorkspacePlan(ctx.db, workspace.id, input.plan);
  const updated = (await findWorkspace(ctx.db, workspace.id))!;
  const limits = PLANS[input.plan];
  ctx.out.result({ workspace: updated, previousPlan: previous, limits }, [
    previous === input.plan
      ? `workspace ${updated.code ?? updated.id} is already on the ${input.plan} plan`
      : `workspace ${updated.code ?? updated.id} moved from the ${previous} plan to the ${input.plan} plan`,
    ...workspaceFields(updated),
    ...fields([
      [
        "limits",
        `${limits.quotesPerMinute} quotes, ${limits.receiptsPerMinute} receipts, ${limits.tokensPerMinute} tokens per minute; ${limits.requestsPerHour} requests per hour`,
      ],
    ]),
  ]);
}

export function workspaceFields(workspace: WorkspaceView): string[] {
  return fields([
    ["id", workspace.id],
    ["name", workspace.name],
    ["code", workspace.code ?? "-"],
    ["plan", workspace.plan],
    [
      "activated",
      workspace.activatedAt
        ? `yes (since ${workspace.activatedAt.toISOString()})`
        : "no (not registered on chain yet)",
    ],
  ]);
}

function onChainView(builder: RegistryBuilder) {
  return { registered: true, ...builder };
}

function codeTaken(workspace: WorkspaceView): OperatorError {
  return new OperatorError(
    `builder code ${workspace.code} already belongs to workspace ${workspace.id} (${workspace.name})`,
  );
}

const REVERT_HINTS: Record<string, string> = {
  BuilderAlreadyRegistered: ": the code is taken on chain by another owner",
  FeeAboveCap: ": the fee is above the registry's cap for new builders",
  InvalidBuilderCode: ": the registry refuses this code",
  ZeroAddress: ": the payout wallet must not be the zero address",
};
