import type { Address, Hex } from "viem";
import type { ProviderId } from "./provider-ids.ts";

/** What the pipeline asks every third-party source, for one pinned block. */
export type ProviderQuoteRequest = {
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  /** The account that will send the transaction: the synthetic caller while assessing. */
  taker: Address;
  /** The block every candidate is simulated at; a provider quoting another block is still simulated here. */
  blockNumber: bigint;
  signal: AbortSignal;
};

/**
 * One executable candidate from a provider: the complete transaction it wants sent, the address the input
 * must be approved to, and the output it promises. It carries calldata internally; calldata never reaches
 * a response (docs/rules.md, comparison rule 9).
 */
export type ProviderQuote = {
  provider: Exclude<ProviderId, "service">;
  /** Distinguishes a provider's variants (aggregator-a returns up to four; aggregator-b one firm quote). */
  variant: string;
  amountOut: bigint;
  tx: { to: Address; data: Hex; value: bigint };
  allowanceTarget: Address;
  /** Unix seconds after which the provider no longer honours the quote (firm quotes). */
  expiresAt?: number;
};

/** A closed list of reasons a provider produced nothing; remote bodies and credentials never travel. */
export type ProviderFailure = {
  provider: Exclude<ProviderId, "service">;
  reason: "timeout" | "unavailable" | "rejected" | "no-route" | "invalid-response" | "binding-mismatch";
};

/**
 * A third-party quote source behind one interface (DESIGN "providers/"). Adapters validate what they return
 * (for the firm quote: the fixed allowance holder, the decoded input/recipient/output bindings and the
 * active settler registry, docs/rules.md, comparison rule 2) and report failures by closed reason, never by
 * throwing a remote error body upward.
 */
export interface QuoteProvider {
  readonly id: Exclude<ProviderId, "service">;
  /** At most this many variants per request (docs/rules.md, comparison rule 1). */
  readonly maxVariants: number;
  quote(request: ProviderQuoteRequest): Promise<ProviderQuote[] | ProviderFailure>;
}
