import { z } from "zod";
import type { BridgeProvider, BridgeQuote, BridgeQuoteRequest } from "../bridge-provider.ts";
import { declineOnFailure, getProviderJson, ProviderCallError, withSlash } from "./provider-http.ts";

const UINT = z.string().regex(/^[0-9]{1,78}$/);
const Fee = z.object({ pct: UINT, total: UINT });

/** The part of an intent bridge's `GET /api/suggested-fees` answer (Across's shape) the adapter reads. */
const SuggestedFeesSchema = z.object({
  outputAmount: UINT,
  totalRelayFee: Fee,
  relayerCapitalFee: Fee,
  relayerGasFee: Fee,
  lpFee: Fee,
  isAmountTooLow: z.boolean(),
  limits: z.object({ minDeposit: UINT, maxDeposit: UINT }),
  estimatedFillTimeSec: z.number().nonnegative().optional(),
});

/** Its error body: `{type: "AcrossApiError", code, status, message}`. */
const ErrorSchema = z.object({ code: z.string() });

const DECLINE_CODES: Record<string, BridgeQuote & { status: "unavailable" }> = {
  AMOUNT_TOO_LOW: { status: "unavailable", reason: "amount-below-minimum" },
  AMOUNT_TOO_HIGH: { status: "unavailable", reason: "amount-above-maximum" },
  ROUTE_NOT_ENABLED: { status: "unavailable", reason: "unsupported-pair" },
  INVALID_PARAM: { status: "unavailable", reason: "unsupported-pair" },
};

export type BridgeBOptions = {
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; never logged or returned. */
  apiKey?: string;
  /** Our integrator id, sent as `integratorId`. */
  integrator: string;
};

/**
 * `bridge-b`: an intent-based bridge with Across's public API shape
 * (`GET /api/suggested-fees?inputToken&outputToken&originChainId&destinationChainId&amount`): tokens by their
 * wrapped address (WETH for ETH), fees as totals in input-token units, deposit limits, `isAmountTooLow`.
 * It moves one asset between chains: a pair of two assets is declined without a call. It pays no partner
 * commission.
 */
export function createBridgeB(options: BridgeBOptions): BridgeProvider {
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    id: "bridge-b",
    quote: (request, signal) =>
      declineOnFailure(async () => {
        if (request.input.kind !== request.output.kind)
          return { status: "unavailable", reason: "unsupported-pair" } satisfies BridgeQuote;
        const url = new URL("api/suggested-fees", withSlash(options.baseUrl));
        const params = {
          inputToken: request.input.token.wrapped,
          outputToken: request.output.token.wrapped,
          originChainId: String(request.input.chainId),
          destinationChainId: String(request.output.chainId),
          amount: request.amount.toString(),
          integratorId: options.integrator,
        };
        for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
        const { status, body } = await getProviderJson(url, headers, signal);
        if (status !== 200) {
          const error = ErrorSchema.safeParse(body);
          const declined = status === 400 && error.success ? DECLINE_CODES[error.data.code] : undefined;
          if (declined) return declined;
          return {
            status: "unavailable",
            reason: status === 400 || status === 404 ? "no-quote" : "provider-error",
          } satisfies BridgeQuote;
        }
        const fees = SuggestedFeesSchema.safeParse(body);
        if (!fees.success) throw new ProviderCallError("provider-malformed");
        return toQuote(fees.data, request);
      }),
  };
}

function toQuote(fees: z.infer<typeof SuggestedFeesSchema>, request: BridgeQuoteRequest): BridgeQuote {
  if (fees.isAmountTooLow || request.amount < BigInt(fees.limits.minDeposit))
    return { status: "unavailable", reason: "amount-below-minimum" };
  if (request.amount > BigInt(fees.limits.maxDeposit))
    return { status: "unavailable", reason: "amount-above-maximum" };
  const total = BigInt(fees.totalRelayFee.total);
  const parts = [fees.relayerCapitalFee, fees.relayerGasFee, fees.lpFee].map((fee) => BigInt(fee.total));
  const output = BigInt(fees.outputAmount);
  // Same asset in and out: the fees' parts must add up to their total, and the output is what is left.
  if (
    parts.reduce((a, b) => a + b, 0n) !== total ||
    total > request.amount ||
    output !== request.amount - total
  )
    throw new ProviderCallError("provider-malformed");
  const asset = request.input.kind;
  return {
    status: "quoted",
    outputAmount: output,
    fees: [
      { name: "relayer-capital-fee", amount: parts[0]!, asset },
      { name: "relayer-gas-fee", amount: parts[1]!, asset },
      { name: "lp-fee", amount: parts[2]!, asset },
    ],
    partnerCommissionBps: null,
    estimatedSeconds: fees.estimatedFillTimeSec ?? null,
  };
}
