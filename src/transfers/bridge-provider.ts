import type { AssetKind, ChainAsset, TransferAsset } from "./assets.ts";

/** The bridge providers transfer estimates ask (neutral names; docs/rules.md, ours: transfer estimates). */
export const BRIDGE_PROVIDER_IDS = ["bridge-a", "bridge-b"] as const;
export type BridgeProviderId = (typeof BRIDGE_PROVIDER_IDS)[number];

/**
 * Why a provider route has no estimate: a closed list, never remote text.
 * - `unsupported-pair`: the provider does not serve this asset pair or chain pair.
 * - `amount-below-minimum` / `amount-above-maximum`: outside the provider's limits for the pair.
 * - `no-quote`: the provider declined without saying why.
 * - `provider-timeout`: no answer within the provider's deadline.
 * - `provider-error`: the provider could not be reached or answered with an error status.
 * - `provider-malformed`: the answer did not parse, or did not match what was asked.
 * - `provider-not-configured`: the operator has not configured this provider.
 */
export const ROUTE_UNAVAILABLE_REASONS = [
  "unsupported-pair",
  "amount-below-minimum",
  "amount-above-maximum",
  "no-quote",
  "provider-timeout",
  "provider-error",
  "provider-malformed",
  "provider-not-configured",
] as const;
export type RouteUnavailableReason = (typeof ROUTE_UNAVAILABLE_REASONS)[number];

/** Names of the fees a provider reports, normalised across providers. */
export const PROVIDER_FEE_NAMES = [
  "bridge-fee",
  "relayer-capital-fee",
  "relayer-gas-fee",
  "lp-fee",
  "partner-commission",
] as const;
export type ProviderFeeName = (typeof PROVIDER_FEE_NAMES)[number];

/** One fee inside a provider's estimate, in base units of `asset` (already deducted from the output). */
export type ProviderFee = { name: ProviderFeeName; amount: bigint; asset: AssetKind };

/** What a provider is asked: move `amount` base units of `input` (after our reserved fee) to `output`. */
export type BridgeQuoteRequest = {
  input: TransferAsset & { token: ChainAsset };
  output: TransferAsset & { token: ChainAsset };
  amount: bigint;
};

export type BridgeQuote =
  | {
      status: "quoted";
      /** Estimated payout in base units of the output asset, after the provider's fees and costs. */
      outputAmount: bigint;
      /** The provider's fees inside that estimate. */
      fees: ProviderFee[];
      /** The partner commission the provider reports paying out of its fees, in bps; null when it reports none. */
      partnerCommissionBps: number | null;
      /** The provider's own fill-time estimate: not a delivery promise. */
      estimatedSeconds: number | null;
    }
  | { status: "unavailable"; reason: RouteUnavailableReason };

/**
 * One bridge provider behind the common interface (docs/rules.md, transfer estimate rule 4): answers a quote
 * or declines with a closed reason. It must stop when `signal` aborts (its deadline) and never throw: a
 * failure is a declined route, never a failed estimate.
 */
export type BridgeProvider = {
  id: BridgeProviderId;
  quote: (request: BridgeQuoteRequest, signal: AbortSignal) => Promise<BridgeQuote>;
};
