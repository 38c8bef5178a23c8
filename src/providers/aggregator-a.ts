import { type Address, type Hex, zeroAddress } from "viem";
import { z } from "zod";
import { fetchProviderJson, ProviderHttpError, sameAddress, withSlash } from "./fetch-json.ts";
import { failureOf, type ProviderFailure, type ProviderQuote, type QuoteProvider } from "./provider.ts";

/** Native ETH as the route-then-build API writes it. */
const NATIVE = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

/**
 * aggregator-a's four variants (docs/rules.md, ours: aggregators): its default routing; direct pools only
 * (one pool, no intermediate token; also the whole of `provider=aggregator-a-direct`); V2 pools only; V3
 * pools only. Each is one candidate with its own comparison entry.
 */
export const AGGREGATOR_A_VARIANTS = {
  default: {},
  direct: { onlyDirectPools: "true" },
  "v2-only": { includedSources: "uniswap" },
  "v3-only": { includedSources: "uniswapv3" },
} as const satisfies Record<string, Record<string, string>>;

/** The slippage the built transaction's minimum allows below the route's output (bps). */
const BUILD_SLIPPAGE_BPS = 50;
/** Seconds the built transaction stays valid. */
const BUILD_DEADLINE_S = 600;

const UINT = z.string().regex(/^[0-9]{1,78}$/);
const RoutesSchema = z.object({
  code: z.literal(0),
  data: z.object({
    routeSummary: z
      .object({ tokenIn: z.string(), tokenOut: z.string(), amountIn: UINT, amountOut: UINT })
      .passthrough(),
    routerAddress: z.string(),
  }),
});
const BuildSchema = z.object({
  code: z.literal(0),
  data: z.object({
    amountIn: UINT,
    amountOut: UINT,
    data: z.string().regex(/^0x([0-9a-fA-F]{2})+$/),
    routerAddress: z.string(),
    transactionValue: UINT,
  }),
});

export type AggregatorAOptions = {
  /** The API's base URL including its chain segment. */
  baseUrl: string;
  /** Sent as `x-client-id`; never logged or returned. */
  apiKey?: string;
  /** The router its transactions must call (and the spender to approve); anything else is not trusted. */
  router: Address;
};

/**
 * aggregator-a: a route-then-build aggregator with KyberSwap's API shape. Per variant: `GET api/v1/routes`
 * for a route summary, then `POST api/v1/route/build` for the transaction, sent by the taker and paying
 * out to the request's recipient (the taker when none is named). A transaction to another contract than
 * the configured router, for another amount or value than asked, is not a candidate (`invalid-response`).
 */
export function createAggregatorA(options: AggregatorAOptions): QuoteProvider {
  const headers: Record<string, string> = options.apiKey ? { "x-client-id": options.apiKey } : {};
  const base = withSlash(options.baseUrl);
  const variants = Object.keys(AGGREGATOR_A_VARIANTS);
  return {
    id: "aggregator-a",
    variants,
    quote: (request) =>
      Promise.all(
        (request.variants ?? variants)
          .filter((variant) => variant in AGGREGATOR_A_VARIANTS)
          .map(async (variant): Promise<ProviderQuote | ProviderFailure> => {
            const provider = variant === "direct" ? "aggregator-a-direct" : "aggregator-a";
            try {
              const quote = await quoteVariant(variant as keyof typeof AGGREGATOR_A_VARIANTS, request);
              return quote ? { ...quote, provider, variant } : { provider, variant, reason: "no-route" };
            } catch (error) {
              if (error instanceof ProviderHttpError) return failureOf(provider, variant, error.failure);
              if (error instanceof InvalidAnswer) return { provider, variant, reason: "invalid-response" };
              throw error;
            }
          }),
      ),
  };

  async function quoteVariant(
    variant: keyof typeof AGGREGATOR_A_VARIANTS,
    request: Parameters<QuoteProvider["quote"]>[0],
  ): Promise<Omit<ProviderQuote, "provider" | "variant"> | undefined> {
    const token = (address: Address) => (address === zeroAddress ? NATIVE : address);
    const routesUrl = new URL("api/v1/routes", base);
    for (const [name, value] of Object.entries({
      tokenIn: token(request.tokenIn),
      tokenOut: token(request.tokenOut),
      amountIn: request.amountIn.toString(),
      ...AGGREGATOR_A_VARIANTS[variant],
    }))
      routesUrl.searchParams.set(name, value);
    const routes = await fetchProviderJson(routesUrl, { headers }, request.signal);
    if (routes.status === 400 || routes.status === 404) return undefined;
    const parsed = RoutesSchema.safeParse(routes.body);
    if (routes.status !== 200 || !parsed.success) throw new InvalidAnswer();
    const summary = parsed.data.data.routeSummary;
    if (
      !sameAddress(summary.tokenIn, token(request.tokenIn)) ||
      !sameAddress(summary.tokenOut, token(request.tokenOut)) ||
      BigInt(summary.amountIn) !== request.amountIn
    )
      throw new InvalidAnswer();
    const built = await fetchProviderJson(
      new URL("api/v1/route/build", base),
      {
        method: "POST",
        headers,
        body: {
          // Sent back exactly as received: the API checksums it.
          routeSummary: (routes.body as { data: { routeSummary: unknown } }).data.routeSummary,
          sender: request.taker,
          recipient: request.recipient ?? request.taker,
          slippageTolerance: BUILD_SLIPPAGE_BPS,
          deadline: Math.floor(Date.now() / 1000) + BUILD_DEADLINE_S,
          source: "junction",
        },
      },
      request.signal,
    );
    const build = BuildSchema.safeParse(built.body);
    if (built.status !== 200 || !build.success) throw new InvalidAnswer();
    const { data } = build.data;
    const value = BigInt(data.transactionValue);
    if (
      !sameAddress(data.routerAddress, options.router) ||
      BigInt(data.amountIn) !== request.amountIn ||
      value !== (request.tokenIn === zeroAddress ? request.amountIn : 0n)
    )
      throw new InvalidAnswer();
    return {
      amountOut: BigInt(summary.amountOut),
      tx: { to: options.router, data: data.data as Hex, value },
      allowanceTarget: options.router,
      ...(request.recipient ? { recipient: request.recipient } : {}),
    };
  }
}

/** An answer that parsed but does not answer the request. */
class InvalidAnswer extends Error {
  override name = "InvalidAnswer";
}
