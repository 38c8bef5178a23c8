/**
 * The Junction SDK: typed clients for {base_url} (public routing and the builder API) and {partner_url},
 * their types generated from the service's OpenAPI documents (scripts/generate-sdk-types.ts), errors as
 * {@link JunctionApiError} values carrying the error code, and the pre-sign wallet flow.
 */
export * from "./client.ts";
export { type ErrorBody, JunctionApiError, WalletFlowError } from "./errors.ts";
export type { RetryPolicy } from "./retry.ts";
export * from "./wallet-flow.ts";
