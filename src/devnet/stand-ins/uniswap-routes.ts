import type { Address, PublicClient } from "viem";
import { quoterV2Abi } from "../../contracts/abis/QuoterV2.ts";
import { uniswapV2Router02Abi } from "../../contracts/abis/UniswapV2Router02.ts";

/** A hop the stand-in contracts execute: `kind` 0 through the V2 router, 1 through the V3 router at `fee`. */
export type StandInHop = {
  kind: 0 | 1;
  tokenIn: Address;
  tokenOut: Address;
  fee: number;
  amountIn: bigint;
  amountOut: bigint;
};

export type StandInRoute = { hops: StandInHop[]; amountOut: bigint };

/** Which hops a route may use: the aggregator-a variants restrict these. */
export type RouteRules = { maxHops: 1 | 2; kinds: readonly (0 | 1)[] };

const V3_FEES = [100, 500, 3000, 10_000];

export type UniswapQuoting = {
  client: PublicClient;
  v2Router: Address;
  quoterV2: Address;
  /** Tokens a two-hop route may pass through (WETH, USDC). */
  connectors: readonly Address[];
};

/**
 * The aggregator stand-ins' own, simpler routing: the best single path of at most two hops through the
 * canonical Uniswap V2 and V3 pools, each hop chosen greedily by the official quoters at the latest block
 * (V2 Router02 `getAmountsOut`, V3 QuoterV2 `quoteExactInputSingle`). No splits, no V4: Junction's own search
 * beats it where those matter, and its lower fee beats Junction where they do not.
 */
export async function bestStandInRoute(
  quoting: UniswapQuoting,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  rules: RouteRules,
): Promise<StandInRoute | undefined> {
  const candidates: Promise<StandInRoute | undefined>[] = [
    bestHop(quoting, tokenIn, tokenOut, amountIn, rules).then((hop) =>
      hop ? { hops: [hop], amountOut: hop.amountOut } : undefined,
    ),
  ];
  if (rules.maxHops === 2)
    for (const via of quoting.connectors) {
      if (same(via, tokenIn) || same(via, tokenOut)) continue;
      candidates.push(
        (async () => {
          const first = await bestHop(quoting, tokenIn, via, amountIn, rules);
          if (!first) return undefined;
          const second = await bestHop(quoting, via, tokenOut, first.amountOut, rules);
          return second ? { hops: [first, second], amountOut: second.amountOut } : undefined;
        })(),
      );
    }
  let best: StandInRoute | undefined;
  for (const route of await Promise.all(candidates))
    if (route && (!best || route.amountOut > best.amountOut)) best = route;
  return best;
}

async function bestHop(
  quoting: UniswapQuoting,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
  rules: RouteRules,
): Promise<StandInHop | undefined> {
  const quotes: Promise<StandInHop | undefined>[] = [];
  if (rules.kinds.includes(0))
    quotes.push(
      quoting.client
        .readContract({
          address: quoting.v2Router,
          abi: uniswapV2Router02Abi,
          functionName: "getAmountsOut",
          args: [amountIn, [tokenIn, tokenOut]],
        })
        .then(
          (amounts) => ({ kind: 0 as const, tokenIn, tokenOut, fee: 3000, amountIn, amountOut: amounts[1]! }),
          () => undefined,
        ),
    );
  if (rules.kinds.includes(1))
    for (const fee of V3_FEES)
      quotes.push(
        quoting.client
          .simulateContract({
            address: quoting.quoterV2,
            abi: quoterV2Abi,
            functionName: "quoteExactInputSingle",
            args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
          })
          .then(
            ({ result }) => ({ kind: 1 as const, tokenIn, tokenOut, fee, amountIn, amountOut: result[0] }),
            () => undefined,
          ),
      );
  let best: StandInHop | undefined;
  for (const hop of await Promise.all(quotes))
    if (hop && hop.amountOut > 0n && (!best || hop.amountOut > best.amountOut)) best = hop;
  return best;
}

const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase();
