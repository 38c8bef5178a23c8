import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { invalidInput, JunctionError } from "../errors/junction-error.ts";
import { insertEventFor } from "../store/repositories/events.ts";
import { type DeliveryLogEntry, deliveriesOf, redeliver } from "../store/repositories/webhook-deliveries.ts";
import {
  deleteWebhookEndpoint,
  insertWebhookEndpoint,
  rotateWebhookSecret,
  type WebhookEndpointRow,
  webhookEndpoint,
  webhookEndpointCount,
  webhookEndpointsOf,
} from "../store/repositories/webhook-endpoints.ts";
import type { Db } from "../store/schema.ts";
import { isPrivateAddress, resolveAll } from "./endpoint-address.ts";
import {
  envelope,
  SETTLEMENT_EVENT_TYPES,
  type SettlementEventType,
  WEBHOOK_TEST,
} from "./event-envelope.ts";
import { newSigningSecret } from "./webhook-signature.ts";

/**
 * Where webhooks may point (docs/api/builders.md, "Events and webhooks"): HTTPS only, public addresses
 * only, unless the operator allows plain HTTP (the devnet does) or private addresses (the devnet does;
 * elsewhere `JUNCTION_WEBHOOKS_ALLOW_PRIVATE`).
 */
export type WebhookPolicy = { allowHttp: boolean; allowPrivate: boolean };

export const WEBHOOK_LIMITS = {
  endpointsPerWorkspace: 10,
  urlMaxLength: 2_048,
  /** Deliveries a log page shows. */
  logEntries: 100,
  /** How long a replaced secret still signs deliveries after a rotation. */
  rotationOverlapSeconds: 24 * 3_600,
} as const;

/** An endpoint as its owner sees it: never its secret after it was shown once. */
export type WebhookEndpointView = {
  id: string;
  url: string;
  eventTypes: SettlementEventType[];
  createdAt: string;
  /** While a rotated-out secret still signs deliveries: until when (ISO time). */
  previousSecretValidUntil: string | null;
};

function view(row: WebhookEndpointRow, now = new Date()): WebhookEndpointView {
  const until = row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil : null;
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes as SettlementEventType[],
    createdAt: row.createdAt.toISOString(),
    previousSecretValidUntil: until?.toISOString() ?? null,
  };
}

/**
 * Adds a webhook endpoint to the workspace, subscribed to `eventTypes` (every settlement event when
 * omitted), and returns it with its signing secret: the only time the secret is shown.
 */
export async function addWebhookEndpoint(
  db: Db,
  policy: WebhookPolicy,
  workspaceId: string,
  input: { url: string; eventTypes?: readonly string[] | undefined },
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const url = await checkEndpointUrl(input.url, policy);
  const eventTypes = checkEventTypes(input.eventTypes);
  if ((await webhookEndpointCount(db, workspaceId)) >= WEBHOOK_LIMITS.endpointsPerWorkspace)
    throw invalidInput(
      "url",
      `a workspace has at most ${WEBHOOK_LIMITS.endpointsPerWorkspace} webhook endpoints`,
    );
  const secret = newSigningSecret();
  const row = await insertWebhookEndpoint(db, {
    id: `we_${randomBytes(12).toString("hex")}`,
    workspaceId,
    url,
    eventTypes,
    secret,
  });
  return { endpoint: view(row), secret };
}

export async function listWebhookEndpoints(db: Db, workspaceId: string): Promise<WebhookEndpointView[]> {
  const now = new Date();
  return (await webhookEndpointsOf(db, workspaceId)).map((row) => view(row, now));
}

/** Removes the endpoint and its delivery log; nothing more is sent to it. */
export async function removeWebhookEndpoint(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteWebhookEndpoint(db, workspaceId, id))) throw endpointNotFound();
}

/**
 * A new signing secret for the endpoint, shown once; the replaced one keeps signing deliveries (each
 * carries both signatures) for `WEBHOOK_LIMITS.rotationOverlapSeconds`, so the receiver can switch over.
 */
export async function rotateWebhookEndpointSecret(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const secret = newSigningSecret();
  const row = await rotateWebhookSecret(db, workspaceId, id, secret, WEBHOOK_LIMITS.rotationOverlapSeconds);
  if (!row) throw endpointNotFound();
  return { endpoint: view(row), secret };
}

/** Sends a `webhook.test` event to the endpoint (only), delivered and logged like any other. */
export async function sendTestEvent(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<{ eventId: string; deliveryId: string }> {
  if (!(await webhookEndpoint(db, workspaceId, id))) throw endpointNotFound();
  const eventId = `evt_test_${randomBytes(12).toString("hex")}`;
  const event = envelope(
    { id: eventId, type: WEBHOOK_TEST, workspaceId, quoteId: null, data: { endpointId: id } },
    new Date(),
  );
  const deliveryId = randomUUID();
  await insertEventFor(db, event, id, deliveryId);
  return { eventId, deliveryId };
}

/** The endpoint's recent deliveries, newest first. */
export async function webhookDeliveryLog(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<DeliveryLogEntry[]> {
  if (!(await webhookEndpoint(db, workspaceId, id))) throw endpointNotFound();
  return deliveriesOf(db, id, WEBHOOK_LIMITS.logEntries);
}

/** Sends one of the endpoint's deliveries again, from the start of the retry schedule. */
export async function redeliverWebhook(
  db: Db,
  workspaceId: string,
  id: string,
  deliveryId: string,
): Promise<void> {
  if (!(await webhookEndpoint(db, workspaceId, id))) throw endpointNotFound();
  if (!(await redeliver(db, id, deliveryId)))
    throw new JunctionError("NOT_FOUND", "no delivery with this id for this endpoint");
}

const endpointNotFound = () =>
  new JunctionError("NOT_FOUND", "no webhook endpoint with this id in this workspace");

/**
 * The endpoint URL, checked against the policy: absolute, HTTPS (or HTTP where allowed), no credentials,
 * and a host whose every address is public (unless private addresses are allowed). Deliveries check the
 * addresses again when they connect.
 */
export async function checkEndpointUrl(input: string, policy: WebhookPolicy): Promise<string> {
  if (input.length > WEBHOOK_LIMITS.urlMaxLength)
    throw invalidInput("url", `at most ${WEBHOOK_LIMITS.urlMaxLength} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalidInput("url", "an absolute https:// URL");
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:"))
    throw invalidInput("url", policy.allowHttp ? "an http:// or https:// URL" : "an https:// URL");
  if (url.username || url.password) throw invalidInput("url", "must not carry credentials");
  if (url.hash) throw invalidInput("url", "must not carry a fragment");
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (host === "localhost" || host.endsWith(".localhost"))
      throw invalidInput("url", "a private or loopback address is not allowed");
    let addresses: string[];
    try {
      addresses = await resolveAll(host);
    } catch {
      throw invalidInput("url", "the host does not resolve");
    }
    if (addresses.length === 0 || addresses.some(isPrivateAddress))
      throw invalidInput(
        "url",
        isIP(host)
          ? "a private or loopback address is not allowed"
          : "the host resolves to a private address",
      );
  }
  return url.toString();
}

function checkEventTypes(input: readonly string[] | undefined): SettlementEventType[] {
  if (input === undefined || input.length === 0) return [...SETTLEMENT_EVENT_TYPES];
  const known = new Set<string>(SETTLEMENT_EVENT_TYPES);
  for (const type of input)
    if (!known.has(type)) throw invalidInput("eventTypes", `one of ${SETTLEMENT_EVENT_TYPES.join(", ")}`);
  return [...new Set(input)] as SettlementEventType[];
}
