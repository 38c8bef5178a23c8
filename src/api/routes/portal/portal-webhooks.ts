import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Address } from "viem";
import { z } from "zod";
import { SETTLEMENT_EVENT_TYPES } from "../../../events/event-envelope.ts";
import type { OutboxSignal } from "../../../events/outbox-signal.ts";
import {
  addWebhookEndpoint,
  listWebhookEndpoints,
  redeliverWebhook,
  removeWebhookEndpoint,
  rotateWebhookEndpointSecret,
  sendTestEvent,
  type WebhookPolicy,
  webhookDeliveryLog,
} from "../../../events/webhook-endpoints.ts";
import { ownWorkspace } from "../../../portal/workspaces.ts";
import type { DeliveryLogEntry } from "../../../store/repositories/webhook-deliveries.ts";
import type { Db } from "../../../store/schema.ts";

/** What the portal's webhook routes need: where endpoints may point, and the sender to wake. */
export type PortalWebhookDeps = { policy: WebhookPolicy; signal: OutboxSignal };

const EndpointBody = z.strictObject({
  url: z.string().max(4096),
  eventTypes: z.array(z.string().max(64)).max(8).optional(),
});

type PortalEnv = { Variables: { wallet: Address } };

/**
 * The portal's webhook routes (docs/api/builders.md, "Events and webhooks"), for the signed-in owner of a
 * workspace: add (the signing secret is in this answer only), list, remove, rotate the secret, send a test
 * event, read the delivery log and redeliver.
 */
export function registerPortalWebhooks(
  api: OpenAPIHono<PortalEnv>,
  signedIn: MiddlewareHandler<PortalEnv>,
  deps: { db: Db; webhooks: PortalWebhookDeps },
  body: <T>(c: Parameters<MiddlewareHandler>[0], schema: z.ZodType<T>) => Promise<T>,
): void {
  const { db } = deps;
  const workspaceOf = async (c: {
    get: (key: "wallet") => Address;
    req: { param: (name: "id") => string };
  }) => (await ownWorkspace(db, c.get("wallet"), c.req.param("id"))).id;

  // With the event types an endpoint may subscribe to, so the portal offers exactly the service's.
  api.get("/workspaces/:id/webhooks", signedIn, async (c) =>
    c.json({
      endpoints: await listWebhookEndpoints(db, await workspaceOf(c)),
      eventTypes: SETTLEMENT_EVENT_TYPES,
    }),
  );
  api.post("/workspaces/:id/webhooks", signedIn, async (c) => {
    const workspace = await workspaceOf(c);
    const input = await body(c, EndpointBody);
    return c.json(await addWebhookEndpoint(db, deps.webhooks.policy, workspace, input), 201);
  });
  api.delete("/workspaces/:id/webhooks/:endpointId", signedIn, async (c) => {
    await removeWebhookEndpoint(db, await workspaceOf(c), c.req.param("endpointId"));
    return c.body(null, 204);
  });
  api.post("/workspaces/:id/webhooks/:endpointId/rotate", signedIn, async (c) =>
    c.json(await rotateWebhookEndpointSecret(db, await workspaceOf(c), c.req.param("endpointId"))),
  );
  api.post("/workspaces/:id/webhooks/:endpointId/test", signedIn, async (c) => {
    const sent = await sendTestEvent(db, await workspaceOf(c), c.req.param("endpointId"));
    deps.webhooks.signal.notify();
    return c.json(sent, 202);
  });
  api.get("/workspaces/:id/webhooks/:endpointId/deliveries", signedIn, async (c) => {
    const log = await webhookDeliveryLog(db, await workspaceOf(c), c.req.param("endpointId"));
    return c.json({ deliveries: log.map(deliveryView) });
  });
  api.post("/workspaces/:id/webhooks/:endpointId/deliveries/:deliveryId/redeliver", signedIn, async (c) => {
    await redeliverWebhook(db, await workspaceOf(c), c.req.param("endpointId"), c.req.param("deliveryId"));
    deps.webhooks.signal.notify();
    return c.body(null, 202);
  });
}

/** A delivery log entry as the portal and the CLI show it: times as ISO strings. */
export function deliveryView(entry: DeliveryLogEntry) {
  return {
    ...entry,
    nextAttemptAt: entry.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: entry.lastAttemptAt?.toISOString() ?? null,
    createdAt: entry.createdAt.toISOString(),
  };
}
