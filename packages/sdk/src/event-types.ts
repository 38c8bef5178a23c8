import type { components } from "./generated/base-api.ts";

/**
 * One settlement event (`settlement.confirming`, `settlement.finalized`, `settlement.reorged`): the body of a
 * webhook delivery and the `data` of an event stream message (docs/api/builders.md, "Events and webhooks").
 * Its `id` is stable: deliveries can repeat, so key on it.
 */
export type SettlementEvent = components["schemas"]["SettlementEvent"];
export type SettlementEventType = SettlementEvent["type"];

/** The event an owner's "send test event" delivers to one endpoint (never in the event stream). */
export type WebhookTestEvent = {
  id: string;
  type: "webhook.test";
  createdAt: string;
  workspace: string;
  quoteId: null;
  data: { endpointId: string };
};

/** What a webhook delivery can carry. */
export type WebhookEvent = SettlementEvent | WebhookTestEvent;
