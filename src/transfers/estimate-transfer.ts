import type { Address } from "viem";
import type { AssetBook, AssetKind, TransferAsset } from "./assets.ts";
import { ASSET_DECIMALS, formatAssetTag } from "./assets.ts";
import {
  BRIDGE_PROVIDER_IDS,
  type BridgeProvider,
  type BridgeProviderId,
  type BridgeQuote,
  type ProviderFeeName,
  type RouteUnavailableReason,
} from "./bridge-provider.ts";
import { fitsDecimalAmount, formatDecimalAmount } from "./decimal-amount.ts";
import { RESERVED_FEE_BPS, reservedFee, TRANSFER_FEE_DISCLOSURE } from "./fees.ts";
import { TRANSFER_LIMITS } from "./limits.ts";

/**
 * Why no route can go live today, on every route (docs/rules.md, transfer estimate rule 6): creating and
 * funding transfers is disabled, the reserved fee is not collected, and no launch evidence is on record.
 */
export const LAUNCH_BLOCKERS = [
  "transfer-creation-disabled",
  "fee-collection-disabled",
  "launch-evidence-missing",
] as const;
export type LaunchBlocker = (typeof LAUNCH_BLOCKERS)[number];

/** The commission policy: commission a provider already pays us is kept, and is inside its estimate. */
export const PARTNER_COMMISSION_POLICY = "retained-provider-paid" as const;

/** A validated estimate request: assets with their tokens resolved, the amount in input base units. */
export type TransferRequest = {
  input: TransferAsset;
  output: TransferAsset;
  amount: bigint;
  delaySeconds: number;
};

export type ProviderFeeView = { name: ProviderFeeName; amount: string; asset: AssetKind };

export type TransferRoute = {
  provider: BridgeProviderId;
  status: "quoted" | "unavailable";
  reason: RouteUnavailableReason | null;
  estimatedOutput: string | null;
  providerFees: ProviderFeeView[];
  partnerCommissionBps: number | null;
  providerEstimatedSeconds: number | null;
  launchBlockers: LaunchBlocker[];
  liveEnabled: false;
};

/** The transfer estimate resource (docs/rules.md, transfer estimate rules 1-6). */
export type TransferEstimate = {
  routeFeeBps: typeof RESERVED_FEE_BPS;
  inputAsset: string;
  outputAsset: string;
  inputAmount: string;
  routeFeeAmount: string;
  providerInputAmount: string;
  estimatedOutput: string | null;
  status: "quoted" | "unavailable";
  selectedProvider: BridgeProviderId | null;
  expiresAt: number;
  liveEnabled: false;
  delaySeconds: number;
  supportedDelaysSeconds: number[];
  fees: {
    directRouteFeeBps: typeof RESERVED_FEE_BPS;
    partnerCommissionPolicy: typeof PARTNER_COMMISSION_POLICY;
    partnerCommissionIncludedInEstimate: true;
    partnerCommissionBps: number | null;
    partnerCommissionRateVerified: false;
    disclosure: string;
    collectionEnabled: false;
    treasury: Address;
  };
  routes: TransferRoute[];
};

export type TransferEstimator = {
  /** The configured providers; a known provider missing here is listed as `provider-not-configured`. */
  providers: readonly BridgeProvider[];
  assets: AssetBook;
  /** The treasury the reserved fee would go to once collected (read from the registry). */
  treasury: () => Promise<Address>;
  /** Failures an adapter did not turn into a declined route (a bug): logged, the route listed as `provider-error`. */
  onProviderBug?: (provider: BridgeProviderId, error: unknown) => void;
  now?: () => number;
};

/**
 * Estimates a transfer (docs/rules.md, transfer estimate rules 1-6): reserves the 20 bps direct fee from the
 * input (rounded up to the input asset's base unit, so the provider input rounds down), asks every
 * configured provider in parallel under its own deadline, and answers every route: quoted with its
 * estimate and fees, or unavailable with a closed reason. The estimate shown is the best quoted route's;
 * `status` is `unavailable` and `estimatedOutput` null when no route quoted. A slow, failing or garbled
 * provider only makes its own route unavailable.
 */
export async function estimateTransfer(
  estimator: TransferEstimator,
  request: TransferRequest,
): Promise<TransferEstimate> {
  const now = estimator.now?.() ?? Date.now();
  const inputDecimals = ASSET_DECIMALS[request.input.kind];
  const outputDecimals = ASSET_DECIMALS[request.output.kind];
  const reserved = reservedFee(request.amount);
  const providerInput = request.amount - reserved;
  const [quotes, treasury] = await Promise.all([
    Promise.all(BRIDGE_PROVIDER_IDS.map((id) => askProvider(estimator, id, request, providerInput))),
    estimator.treasury(),
  ]);
  const routes = quotes.map((quote, i) => toRoute(BRIDGE_PROVIDER_IDS[i]!, quote, outputDecimals));
  const best = pickBest(quotes);
  const selected = best === undefined ? undefined : routes[best];
  return {
    routeFeeBps: RESERVED_FEE_BPS,
    inputAsset: formatAssetTag(request.input),
    outputAsset: formatAssetTag(request.output),
    inputAmount: formatDecimalAmount(request.amount, inputDecimals),
    routeFeeAmount: formatDecimalAmount(reserved, inputDecimals),
    providerInputAmount: formatDecimalAmount(providerInput, inputDecimals),
    estimatedOutput: selected?.estimatedOutput ?? null,
    status: selected ? "quoted" : "unavailable",
    selectedProvider: selected?.provider ?? null,
    expiresAt: now + TRANSFER_LIMITS.estimateTtlMs,
    liveEnabled: false,
    delaySeconds: request.delaySeconds,
    supportedDelaysSeconds: [...TRANSFER_LIMITS.supportedDelaysSeconds],
    fees: {
      directRouteFeeBps: RESERVED_FEE_BPS,
      partnerCommissionPolicy: PARTNER_COMMISSION_POLICY,
      partnerCommissionIncludedInEstimate: true,
      partnerCommissionBps: selected?.partnerCommissionBps ?? null,
      partnerCommissionRateVerified: false,
      disclosure: TRANSFER_FEE_DISCLOSURE,
      collectionEnabled: false,
      treasury,
    },
    routes,
  };
}

async function askProvider(
  estimator: TransferEstimator,
  id: BridgeProviderId,
  request: TransferRequest,
  providerInput: bigint,
): Promise<BridgeQuote> {
  const provider = estimator.providers.find((p) => p.id === id);
  if (!provider) return { status: "unavailable", reason: "provider-not-configured" };
  const inputToken = estimator.assets.get(request.input.chainId)?.[request.input.kind];
  const outputToken = estimator.assets.get(request.output.chainId)?.[request.output.kind];
  if (!inputToken || !outputToken) return { status: "unavailable", reason: "unsupported-pair" };
  // Nothing is left to move: no provider quotes zero.
  if (providerInput === 0n) return { status: "unavailable", reason: "amount-below-minimum" };
  const signal = AbortSignal.timeout(TRANSFER_LIMITS.providerDeadlineMs);
  try {
    const quote = await provider.quote(
      {
        input: { ...request.input, token: inputToken },
        output: { ...request.output, token: outputToken },
        amount: providerInput,
      },
      signal,
    );
    // An estimate the API could not print is no estimate.
    if (
      quote.status === "quoted" &&
      !fitsDecimalAmount(quote.outputAmount, ASSET_DECIMALS[request.output.kind])
    )
      return { status: "unavailable", reason: "provider-malformed" };
    return quote;
  } catch (error) {
    estimator.onProviderBug?.(id, error);
    return { status: "unavailable", reason: signal.aborted ? "provider-timeout" : "provider-error" };
  }
}

function toRoute(provider: BridgeProviderId, quote: BridgeQuote, outputDecimals: number): TransferRoute {
  const quoted = quote.status === "quoted" ? quote : undefined;
  return {
    provider,
    status: quote.status,
    reason: quote.status === "unavailable" ? quote.reason : null,
    estimatedOutput: quoted ? formatDecimalAmount(quoted.outputAmount, outputDecimals) : null,
    providerFees: (quoted?.fees ?? []).map((fee) => ({
      name: fee.name,
      amount: formatDecimalAmount(fee.amount, ASSET_DECIMALS[fee.asset]),
      asset: fee.asset,
    })),
    partnerCommissionBps: quoted?.partnerCommissionBps ?? null,
    providerEstimatedSeconds: quoted?.estimatedSeconds ?? null,
    launchBlockers: [...LAUNCH_BLOCKERS],
    liveEnabled: false,
  };
}

/** The quoted route paying out the most; ties go to the provider listed first. */
function pickBest(quotes: BridgeQuote[]): number | undefined {
  let best: number | undefined;
  for (const [i, quote] of quotes.entries()) {
    if (quote.status !== "quoted") continue;
    const current = best === undefined ? undefined : quotes[best];
    if (current?.status !== "quoted" || quote.outputAmount > current.outputAmount) best = i;
  }
  return best;
}
