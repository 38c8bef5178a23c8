import createClient from "openapi-fetch";
import { JunctionApiError } from "./errors.ts";
import { type EventsOptions, streamEvents } from "./event-stream.ts";
import type { paths as BasePaths } from "./generated/base-api.ts";
import type { paths as PartnerPaths } from "./generated/partner-api.ts";
import { type RetryPolicy, retryingFetch } from "./retry.ts";

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Get<P extends keyof BasePaths> = BasePaths[P] extends { get: infer O } ? O : never;
type Post<P extends keyof BasePaths> = BasePaths[P] extends { post: infer O } ? O : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;
type Body<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

export type QuoteQuery = Query<Get<"/api/v2/quote">>;
export type QuoteResponse = Ok<Get<"/api/v2/quote">>;
export type ConfigResponse = Ok<Get<"/api/v2/config">>;
export type BuilderQuoteQuery = Query<Get<"/api/v2/builders/quote">>;
export type BuilderQuote = Ok<Get<"/api/v2/builders/quote">>;
export type PreparedSwap = Ok<Post<"/api/v2/builders/swaps">>;
export type SwapStatus = Ok<Get<"/api/v2/builders/swaps/{idempotencyKey}">>;
export type ReceiptRequest = Body<Post<"/api/v2/builders/receipts">>;
export type Receipt = Ok<Post<"/api/v2/builders/receipts">>;
export type RegistryTransactionRequest = Body<Post<"/api/v2/builders/registry-transactions">>;
export type RegistryTransaction = Ok<Post<"/api/v2/builders/registry-transactions">>;
export type HistoryQuery = Query<Get<"/api/v2/builders/history">>;
export type History = Ok<Get<"/api/v2/builders/history">>;
export type MultiPlanRequest = Body<Post<"/api/v2/builders/integration">>;
export type MultiPlan = Ok<Post<"/api/v2/builders/integration">>;
export type ProfileQuery = Query<Get<"/api/v2/builders/profile">>;
export type Profile = Ok<Get<"/api/v2/builders/profile">>;
export type TokensQuery = Query<Get<"/api/v2/builders/tokens">>;
export type Tokens = Ok<Get<"/api/v2/builders/tokens">>;
export type Usage = Ok<Get<"/api/v2/builders/usage">>;

export type TransferRoutesQuery = Query<Get<"/api/transfers/v1/routes">>;
export type TransferEstimate = Ok<Get<"/api/transfers/v1/routes">>;

type PartnerOp<P extends keyof PartnerPaths> = PartnerPaths[P] extends { get: infer O } ? O : never;
export type PartnerQuoteQuery = Query<PartnerOp<"/quote">>;
export type PartnerQuote = Ok<PartnerOp<"/quote">>;
export type PartnerToken = Ok<PartnerOp<"/tokens">>;

export type ClientOptions = {
  /** Where the host is, e.g. `http://127.0.0.1:8787` ({base_url}) or `:8788` ({partner_url}). */
  baseUrl: string;
  /** Retry requests refused for capacity after their `Retry-After` (off by default). */
  retry?: RetryPolicy;
  /** A fetch to use instead of the global one (a proxy, a test harness). */
  fetch?: (request: Request) => Promise<Response>;
};

/** Unwraps an openapi-fetch result: the typed body, or a JunctionApiError. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new JunctionApiError(response, error);
  return data;
}

function fetchFor(options: ClientOptions): (request: Request) => Promise<Response> {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = retryingFetch((input, init) => base(new Request(input, init)), options.retry);
  return (request) => retrying(request);
}

/**
 * The {base_url} client: public routing and data with no key, and the builder API with a builder key
 * (`x-api-key`; keep it on your backend). Every method returns the typed body or throws a
 * {@link JunctionApiError} carrying the error code.
 */
export function createJunctionClient(options: ClientOptions & { apiKey?: string }) {
  const client = createClient<BasePaths>({
    baseUrl: options.baseUrl,
    fetch: fetchFor(options),
    headers: options.apiKey ? { "x-api-key": options.apiKey } : {},
  });
  // The stream handles 429 and 503 itself (it reconnects after Retry-After): no retrying fetch under it.
  const streamFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return {
    /** The underlying openapi-fetch client, for anything the methods below do not cover. */
    raw: client,
    /**
     * The workspace's settlement events (`GET /api/v2/builders/events`, builder key with scope `receipts`)
     * as an async iterator that reconnects and resumes by itself; `break` or `signal` ends it.
     */
    events: (eventsOptions?: EventsOptions) =>
      streamEvents({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: streamFetch }, eventsOptions),
    config: () => unwrap(client.GET("/api/v2/config")),
    capabilities: () => unwrap(client.GET("/api/v2/capabilities")),
    /** `GET /api/v2/quote`: the public comparison (keyless). */
    quote: (query: QuoteQuery) => unwrap(client.GET("/api/v2/quote", { params: { query } })),
    builders: {
      quote: (query: BuilderQuoteQuery) =>
        unwrap(client.GET("/api/v2/builders/quote", { params: { query } })),
      /** Prepares the quote's swap; idempotent under `idempotencyKey` (a UUID is a good choice). */
      prepareSwap: (quoteId: string, idempotencyKey: string) =>
        unwrap(
          client.POST("/api/v2/builders/swaps", {
            params: { header: { "idempotency-key": idempotencyKey } },
            body: { quoteId } as Body<Post<"/api/v2/builders/swaps">>,
          }),
        ),
      swapStatus: (idempotencyKey: string) =>
        unwrap(
          client.GET("/api/v2/builders/swaps/{idempotencyKey}", { params: { path: { idempotencyKey } } }),
        ),
      /** Verifies a sent swap: `confirming` until its block is finalized, then `finalized`. Same key as the swap. */
      receipts: (body: ReceiptRequest) => unwrap(client.POST("/api/v2/builders/receipts", { body })),
      registryTransaction: (body: RegistryTransactionRequest) =>
        unwrap(client.POST("/api/v2/builders/registry-transactions", { body })),
      history: (query: HistoryQuery = {}) =>
        unwrap(client.GET("/api/v2/builders/history", { params: { query } })),
      integration: (body: MultiPlanRequest) => unwrap(client.POST("/api/v2/builders/integration", { body })),
      profile: (query: ProfileQuery) => unwrap(client.GET("/api/v2/builders/profile", { params: { query } })),
      tokens: (query: TokensQuery = {}) =>
        unwrap(client.GET("/api/v2/builders/tokens", { params: { query } })),
      usage: () => unwrap(client.GET("/api/v2/builders/usage")),
    },
  };
}

/**
 * The {partner_url} client, with a partner key (`Authorization: Bearer`). A quote that found or built no
 * route is a 200 with `ok: false` (returned, not thrown); refusals (400, 401, 403, 429) throw.
 */
export function createPartnerClient(options: ClientOptions & { apiKey: string }) {
  const client = createClient<PartnerPaths>({
    baseUrl: options.baseUrl,
    fetch: fetchFor(options),
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  return {
    raw: client,
    tokens: (address: string) => unwrap(client.GET("/tokens", { params: { query: { address } } })),
    quote: (query: PartnerQuoteQuery, requestId?: string) =>
      unwrap(
        client.GET("/quote", {
          params: { query, ...(requestId ? { header: { "x-request-id": requestId } } : {}) },
        } as never),
      ) as Promise<PartnerQuote>,
  };
}

/**
 * The transfer estimate client on {base_url}, with a customer key (`X-Service-Api-Key`; server-side only).
 * An estimate with no quoted route is a 200 with `status: "unavailable"` (returned, not thrown); refusals
 * (400, 401, 403, 429) throw. Estimates are not guaranteed payouts.
 */
export function createTransferClient(options: ClientOptions & { apiKey: string }) {
  const client = createClient<BasePaths>({
    baseUrl: options.baseUrl,
    fetch: fetchFor(options),
    headers: { "X-Service-Api-Key": options.apiKey },
  });
  return {
    raw: client,
    /** `GET /api/transfers/v1/routes`: every bridge provider's route, the best estimate shown. */
    routes: (query: TransferRoutesQuery) =>
      unwrap(client.GET("/api/transfers/v1/routes", { params: { query } })),
  };
}
