import type { Address, Hex } from "viem";
import type { QuoteSource } from "./quote-sources.ts";

/** The third-party sources behind the adapter interface (their variants carry their own ids). */
export type ExternalProviderId = Exclude<QuoteSource, "service">;

/** What the pipeline asks every third-party source, for one pinned block. */
export type ProviderQuoteRequest = {
  /** The zero address is native ETH. */
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  /** The account that will send the transaction: the synthetic caller while assessing, or the executor. */
  taker: Address;
  /**
   * Who the transaction pays the output to, where the provider's API lets it differ from the taker (both
   * aggregators' APIs do); the taker when absent.
   */
  recipient?: Address;
  /** The block every candidate is simulated at; a provider quoting another block is still simulated here. */
  blockNumber: bigint;
  /** Only these variants (e.g. `direct` for `provider=aggregator-a-direct`); all when absent. */
  variants?: readonly string[];
  signal: AbortSignal;
};

/**
 * One executable candidate from a provider: the complete transaction it wants sent, the address the input
 * must be approved to, and the output it promises. It carries calldata internally; calldata never reaches
 * a response (docs/rules.md, comparison rule 9).
 */
export type ProviderQuote = {
  provider: ExternalProviderId;
  /** Distinguishes a provider's variants (aggregator-a returns up to four; aggregator-b one firm quote). */
  variant: string;
  amountOut: bigint;
  tx: { to: Address; data: Hex; value: bigint };
  allowanceTarget: Address;
  /** Who the transaction pays the output to, when not the taker (the request's `recipient`). */
  recipient?: Address;
  /** Unix seconds after which the provider no longer honours the quote (firm quotes). */
  expiresAt?: bigint;
  /**
   * The transaction does not bind what was asked (docs/rules.md, comparison rule 2): it is listed as failed
   * with `provider-binding-mismatch` and never simulated.
   */
  bindingMismatch?: true;
};

/** Why a provider (or one of its variants) produced nothing: a closed list; remote bodies never travel. */
export type ProviderFailureReason = "timeout" | "unavailable" | "no-route" | "invalid-response";

export type ProviderFailure = {
  provider: ExternalProviderId;
  variant: string;
  reason: ProviderFailureReason;
};

/**
 * A third-party quote source behind one interface (docs/architecture.md, "Layers": `providers`). Adapters validate what they return
 * (for the firm quote: the fixed allowance holder, the decoded input/recipient/output bindings and the
 * active settler registry, docs/rules.md, comparison rule 2), answer one outcome per variant asked, stop
 * when `signal` aborts, and never throw: a failure is a closed reason, never a remote error body.
 */
export interface QuoteProvider {
  readonly id: "aggregator-a" | "aggregator-b";
  /** The variants it asks, at most four (docs/rules.md, comparison rule 1). */
  readonly variants: readonly string[];
  quote(request: ProviderQuoteRequest): Promise<(ProviderQuote | ProviderFailure)[]>;
}

/** A call's failure as the variant's outcome. */
export function failureOf(
  provider: ExternalProviderId,
  variant: string,
  failure: "timeout" | "unreachable" | "server-error" | "malformed",
): ProviderFailure {
  const reason: ProviderFailureReason =
    failure === "timeout" ? "timeout" : failure === "malformed" ? "invalid-response" : "unavailable";
  return { provider, variant, reason };
}
