import type { WorkspaceView } from "../auth/workspace-views.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { SETTLEMENT_EVENT_TYPES, type SettlementEventType } from "../events/event-envelope.ts";
import {
  addWebhookEndpoint,
  listWebhookEndpoints,
  redeliverWebhook,
  removeWebhookEndpoint,
  rotateWebhookEndpointSecret,
  sendTestEvent,
  type WebhookEndpointView,
  webhookDeliveryLog,
} from "../events/webhook-endpoints.ts";
import type { DeliveryLogEntry } from "../store/repositories/webhook-deliveries.ts";
import { OperatorError, UsageError } from "./cli-errors.ts";
import { requireWorkspace } from "./key-commands.ts";
import type { OperatorContext } from "./operator-context.ts";
import { fields } from "./output.ts";

/**
 * `junction webhooks ...`: a workspace's webhook endpoints, as its owner manages them in the portal
 * (docs/api/builders.md, "Events and webhooks"). The operator acts for the workspace by its id or code.
 * Endpoint URLs are checked against the service's own policy (`config.webhooks`:
 * JUNCTION_WEBHOOKS_ALLOW_PRIVATE, plain http on the devnet), so the CLI accepts what the service would.
 */

/** What a command writing to the outbox says: the running service, not this command, sends it. */
const DELIVERED_BY_SERVICE =
  "the running service delivers it within 5 seconds (junction start); nothing is sent while none runs";

type EndpointRef = { workspace: string; endpoint: string };

/** `--events a,b`: settlement event types, deduplicated; a usage error otherwise. */
export function parseEventTypes(value: string, command: string): SettlementEventType[] {
  const types = [
    ...new Set(
      value
        .split(",")
        .map((type) => type.trim())
        .filter(Boolean),
    ),
  ];
  const known = new Set<string>(SETTLEMENT_EVENT_TYPES);
  const unknown = types.filter((type) => !known.has(type));
  if (types.length === 0 || unknown.length > 0)
    throw new UsageError(
      `--events takes a comma-separated list of ${SETTLEMENT_EVENT_TYPES.join(", ")}${unknown.length ? ` (unknown: ${unknown.join(", ")})` : ""}`,
      command,
    );
  return types as SettlementEventType[];
}

/** `junction webhooks add`: an endpoint and its signing secret, shown once. */
export async function addWebhookCommand(
  ctx: OperatorContext,
  input: { workspace: string; url: string; events?: SettlementEventType[] },
): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const { endpoint, secret } = await refusedAsOperatorError(
    addWebhookEndpoint(ctx.db, ctx.config.webhooks, workspace.id, {
      url: input.url,
      eventTypes: input.events,
    }),
  );
  ctx.out.result({ workspace: workspaceRef(workspace), endpoint, secret, note: SECRET_NOTE }, [
    "webhook endpoint added; its signing secret is shown once, keep it where your receiver checks signatures:",
    `  ${secret}`,
    ...endpointFields(endpoint, workspace),
    `next: junction webhooks test --workspace ${label(workspace)} --endpoint ${endpoint.id}`,
  ]);
}

/** `junction webhooks list`: the workspace's endpoints; never a secret. */
export async function listWebhooksCommand(ctx: OperatorContext, input: { workspace: string }): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const endpoints = await listWebhookEndpoints(ctx.db, workspace.id);
  const human =
    endpoints.length === 0
      ? [
          `the workspace has no webhook endpoints yet (junction webhooks add --workspace ${label(workspace)} ...)`,
        ]
      : [
          `${"ID".padEnd(27)}  ${"EVENTS".padEnd(62)}  URL`,
          ...endpoints.map((e) => `${e.id.padEnd(27)}  ${e.eventTypes.join(",").padEnd(62)}  ${e.url}`),
        ];
  ctx.out.result({ workspace: workspaceRef(workspace), endpoints }, human);
}

/** `junction webhooks test`: a `webhook.test` event for that endpoint only, written to the outbox. */
export async function testWebhookCommand(ctx: OperatorContext, input: EndpointRef): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const sent = await refusedAsOperatorError(
    sendTestEvent(ctx.db, workspace.id, input.endpoint),
    listHint(input),
  );
  ctx.out.result({ endpointId: input.endpoint, ...sent, note: DELIVERED_BY_SERVICE }, [
    `test event ${sent.eventId} queued for ${input.endpoint}: ${DELIVERED_BY_SERVICE}`,
    ...fields([["delivery", sent.deliveryId]]),
    `see: junction webhooks deliveries --workspace ${label(workspace)} --endpoint ${input.endpoint}`,
  ]);
}

/** `junction webhooks deliveries`: the endpoint's recent deliveries, newest first. */
export async function webhookDeliveriesCommand(ctx: OperatorContext, input: EndpointRef): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const deliveries = await refusedAsOperatorError(
    webhookDeliveryLog(ctx.db, workspace.id, input.endpoint),
    listHint(input),
  );
  const human =
    deliveries.length === 0
      ? ["no deliveries to this endpoint yet"]
      : [
          `${"DELIVERY".padEnd(36)}  ${"EVENT".padEnd(21)}  ${"STATUS".padEnd(9)}  TRIES  CODE  ${"LAST ATTEMPT".padEnd(24)}  ${"NEXT ATTEMPT".padEnd(24)}  LAST ERROR`,
          ...deliveries.map(deliveryLine),
        ];
  ctx.out.result({ endpointId: input.endpoint, deliveries }, human);
}

/** `junction webhooks redeliver`: one delivery sent again from the start of the retry schedule. */
export async function redeliverWebhookCommand(
  ctx: OperatorContext,
  input: EndpointRef & { delivery: string },
): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  await refusedAsOperatorError(
    redeliverWebhook(ctx.db, workspace.id, input.endpoint, input.delivery),
    deliveriesHint(input),
  );
  ctx.out.result({ endpointId: input.endpoint, deliveryId: input.delivery, note: DELIVERED_BY_SERVICE }, [
    `delivery ${input.delivery} queued again: ${DELIVERED_BY_SERVICE}`,
  ]);
}

/** `junction webhooks rotate`: a new signing secret, shown once; the old one signs too for 24 hours. */
export async function rotateWebhookCommand(ctx: OperatorContext, input: EndpointRef): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  const { endpoint, secret } = await refusedAsOperatorError(
    rotateWebhookEndpointSecret(ctx.db, workspace.id, input.endpoint),
    listHint(input),
  );
  ctx.out.result({ workspace: workspaceRef(workspace), endpoint, secret, note: SECRET_NOTE }, [
    "signing secret rotated; the new one is shown once (deliveries carry a signature under each secret until the old one expires):",
    `  ${secret}`,
    ...endpointFields(endpoint, workspace),
  ]);
}

/** `junction webhooks remove`: the endpoint and its delivery log; nothing more is sent to it. */
export async function removeWebhookCommand(ctx: OperatorContext, input: EndpointRef): Promise<void> {
  const workspace = await requireWorkspace(ctx, input.workspace);
  await refusedAsOperatorError(removeWebhookEndpoint(ctx.db, workspace.id, input.endpoint), listHint(input));
  ctx.out.result({ endpointId: input.endpoint, removed: true }, [
    `webhook endpoint ${input.endpoint} removed from ${label(workspace)}, with its delivery log`,
  ]);
}

const SECRET_NOTE = "the signing secret is shown once; keep it where your receiver checks signatures";

const label = (workspace: WorkspaceView) => workspace.code ?? workspace.id;
const workspaceRef = (workspace: WorkspaceView) => ({ id: workspace.id, code: workspace.code });

function endpointFields(endpoint: WebhookEndpointView, workspace: WorkspaceView): string[] {
  return fields([
    ["id", endpoint.id],
    ["workspace", `${workspace.id} (${label(workspace)})`],
    ["url", endpoint.url],
    ["events", endpoint.eventTypes.join(", ")],
    ["old secret valid until", endpoint.previousSecretValidUntil ?? "-"],
  ]);
}

function deliveryLine(d: DeliveryLogEntry): string {
  return [
    d.id.padEnd(36),
    d.eventType.padEnd(21),
    d.status.padEnd(9),
    String(d.attempts).padStart(5),
    String(d.lastStatus ?? "-").padStart(4),
    (d.lastAttemptAt?.toISOString() ?? "-").padEnd(24),
    (d.nextAttemptAt?.toISOString() ?? "-").padEnd(24),
    d.lastError ?? "-",
  ].join("  ");
}

/**
 * The domain's refusals (a URL the policy forbids, an unknown endpoint or delivery) as one operator line,
 * naming the flag at fault, or what to run to find the right id; anything else stays unexpected.
 */
async function refusedAsOperatorError<T>(work: Promise<T>, notFoundHint?: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof JunctionError)) throw error;
    if (error.code === "NOT_FOUND")
      throw new OperatorError(`${error.shortMessage}${notFoundHint ? ` (see ${notFoundHint})` : ""}`);
    if (error.code === "INVALID_REQUEST" && error.issues?.length)
      throw new OperatorError(
        error.issues.map((issue) => `${FLAG_OF[issue.path] ?? issue.path}: ${issue.message}`).join("; "),
      );
    throw error;
  }
}

const listHint = (ref: EndpointRef) => `junction webhooks list --workspace ${ref.workspace}`;
const deliveriesHint = (ref: EndpointRef) =>
  `junction webhooks deliveries --workspace ${ref.workspace} --endpoint ${ref.endpoint}`;

/** Which flag carries each input the domain checks. */
const FLAG_OF: Record<string, string> = { url: "--url", eventTypes: "--events" };
