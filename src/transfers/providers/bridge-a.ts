import { z } from "zod";
import type { AssetKind } from "../assets.ts";
import type { BridgeProvider, BridgeQuote, BridgeQuoteRequest, ProviderFee } from "../bridge-provider.ts";
import {
  declineOnFailure,
  getProviderJson,
  ProviderCallError,
  sameAddress,
  withSlash,
} from "./provider-http.ts";

/**
 * The sender a display estimate names: quote APIs require one, no transfer is ever created from it, and it
 * holds nothing (the conventional burn address).
 */
export const ESTIMATE_SENDER = "0x000000000000000000000000000000000000dEaD";

const UINT = z.string().regex(/^[0-9]{1,78}$/);
const FRACTION = z.string().regex(/^(0|[1-9][0-9]*)?(\.[0-9]+)?$/);

const TokenSchema = z.object({ address: z.string(), chainId: z.number().int() });

/** The part of a route-then-quote aggregator's `GET /v1/quote` answer (LI.FI's shape) the adapter reads. */
const QuoteSchema = z.object({
  action: z.object({ fromToken: TokenSchema, toToken: TokenSchema, fromAmount: UINT }),
  estimate: z.object({
    fromAmount: UINT,
    toAmount: UINT,
    executionDuration: z.number().nonnegative().optional(),
    feeCosts: z
      .array(
        z.object({
          name: z.string(),
          amount: UINT,
          percentage: FRACTION.optional(),
          included: z.boolean().optional(),
          token: TokenSchema,
        }),
      )
      .default([]),
  }),
});

/** Its error body: a numeric code, and per failed tool the codes of why (`errors.failed[].subpaths`). */
const ErrorSchema = z.object({
  code: z.number().int().optional(),
  errors: z
    .object({
      failed: z
        .array(z.object({ subpaths: z.record(z.string(), z.array(z.object({ code: z.string() }))) }))
        .optional(),
    })
    .optional(),
});

/** The aggregator's failure codes that say why no route exists, mapped to our closed reasons. */
const DECLINE_CODES: Record<string, BridgeQuote & { status: "unavailable" }> = {
  AMOUNT_TOO_LOW: { status: "unavailable", reason: "amount-below-minimum" },
  FEES_HGHER_THAN_AMOUNT: { status: "unavailable", reason: "amount-below-minimum" },
  INSUFFICIENT_LIQUIDITY: { status: "unavailable", reason: "amount-above-maximum" },
  NO_POSSIBLE_ROUTE: { status: "unavailable", reason: "unsupported-pair" },
};

/** The fee entry carrying the integrator's (our) share of the provider's fee, and relayer cost entries. */
const INTEGRATOR_FEE = /integrator/i;
const RELAYER_FEE = /relayer|gas/i;

export type BridgeAOptions = {
  baseUrl: string;
  /** Sent as `x-lifi-api-key`; never logged or returned. */
  apiKey?: string;
  /** Our integrator name: the provider pays its partner commission to it. */
  integrator: string;
};

/**
 * `bridge-a`: a route-then-quote bridge aggregator with LI.FI's public API shape
 * (`GET /v1/quote?fromChain&toChain&fromToken&toToken&fromAmount&fromAddress&integrator`). Its fee costs
 * list the commission it pays us as integrator, already inside `toAmount`. An answer for another token,
 * chain or amount than asked is malformed.
 */
export function createBridgeA(options: BridgeAOptions): BridgeProvider {
  const headers: Record<string, string> = options.apiKey ? { "x-lifi-api-key": options.apiKey } : {};
  return {
    id: "bridge-a",
    quote: (request, signal) =>
      declineOnFailure(async () => {
        const url = new URL("v1/quote", withSlash(options.baseUrl));
        const params = {
          fromChain: String(request.input.chainId),
          toChain: String(request.output.chainId),
          fromToken: request.input.token.native,
          toToken: request.output.token.native,
          fromAmount: request.amount.toString(),
          fromAddress: ESTIMATE_SENDER,
          integrator: options.integrator,
        };
        for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
        const { status, body } = await getProviderJson(url, headers, signal);
        if (status !== 200) return declined(status, body);
        const quote = QuoteSchema.safeParse(body);
        if (!quote.success || !answersRequest(quote.data, request))
          throw new ProviderCallError("provider-malformed");
        return toQuote(quote.data, request);
      }),
  };
}

function declined(status: number, body: unknown): BridgeQuote {
  const error = ErrorSchema.safeParse(body);
  if (status === 404 || status === 400) {
    const codes = (error.success ? (error.data.errors?.failed ?? []) : []).flatMap((failed) =>
      Object.values(failed.subpaths).flatMap((steps) => steps.map((step) => step.code)),
    );
    for (const code of codes) if (DECLINE_CODES[code]) return DECLINE_CODES[code];
    return { status: "unavailable", reason: "no-quote" };
  }
  // 401/403 (a bad API key) or 429: the provider is unusable right now, not declining the pair.
  return { status: "unavailable", reason: "provider-error" };
}

function answersRequest(quote: z.infer<typeof QuoteSchema>, request: BridgeQuoteRequest): boolean {
  const { fromToken, toToken, fromAmount } = quote.action;
  return (
    sameAddress(fromToken.address, request.input.token.native) &&
    fromToken.chainId === request.input.chainId &&
    sameAddress(toToken.address, request.output.token.native) &&
    toToken.chainId === request.output.chainId &&
    BigInt(fromAmount) === request.amount &&
    BigInt(quote.estimate.fromAmount) === request.amount
  );
}

function toQuote(quote: z.infer<typeof QuoteSchema>, request: BridgeQuoteRequest): BridgeQuote {
  const fees: ProviderFee[] = [];
  let partnerCommissionBps: number | null = null;
  for (const cost of quote.estimate.feeCosts) {
    if (cost.included === false) continue;
    const asset = assetOf(cost.token, request);
    if (!asset) throw new ProviderCallError("provider-malformed");
    const integrator = INTEGRATOR_FEE.test(cost.name);
    const name = integrator
      ? "partner-commission"
      : RELAYER_FEE.test(cost.name)
        ? "relayer-gas-fee"
        : "bridge-fee";
    fees.push({ name, amount: BigInt(cost.amount), asset });
    if (integrator && cost.percentage !== undefined)
      partnerCommissionBps = Math.round(Number(cost.percentage) * 10_000);
  }
  return {
    status: "quoted",
    outputAmount: BigInt(quote.estimate.toAmount),
    fees,
    partnerCommissionBps,
    estimatedSeconds: quote.estimate.executionDuration ?? null,
  };
}

function assetOf(
  token: { address: string; chainId: number },
  request: BridgeQuoteRequest,
): AssetKind | undefined {
  for (const side of [request.input, request.output])
    if (token.chainId === side.chainId && sameAddress(token.address, side.token.native)) return side.kind;
  return undefined;
}
