/**
 * The Junction SDK: typed clients for {base_url} (public routing and the builder API) and {partner_url},
 * their types generated from the service's OpenAPI documents (scripts/generate-sdk-types.ts), errors as
 * {@link JunctionApiError} values carrying the error code, the pre-sign wallet flow, the settlement event
 * stream (`client.events()`) and the webhook signature check ({@link verifyWebhook}).
 */
export * from "./client.ts";
export {
  type ErrorBody,
  JunctionApiError,
  WalletFlowError,
  WebhookSignatureError,
  type WebhookSignatureReason,
} from "./errors.ts";
export type { EventsOptions } from "./event-stream.ts";
export type { SettlementEvent, SettlementEventType, WebhookEvent, WebhookTestEvent } from "./event-types.ts";
export type { RetryPolicy } from "./retry.ts";
export { type VerifyWebhookOptions, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from "./verify-webhook.ts";
export * from "./wallet-flow.ts";
