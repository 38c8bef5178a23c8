import type { Address } from "viem";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";

/** Tokens whose pairs the warm-up searches: the most connected, where most quotes and most paths are. */
const WARM_UP_TOKENS = 6;
/** Trade sizes as fractions of the input token's deepest pool: small (single paths) to splitting. */
const WARM_UP_FRACTIONS = [1e-4, 1e-3, 1e-2] as const;

/** A trade the warm-up runs through the search: real pools, a size that makes the search work. */
export type WarmUpTrade = { tokenIn: Address; tokenOut: Address; amountIn: bigint };

/**
 * The trades the search warm-up runs (create-quoter.ts, `warmSearch`): every ordered pair among the
 * tokens in the most pools, each at a ten-thousandth, a thousandth and a hundredth of what the input
 * token's deepest pool holds of it (by `depthOf`, the followed state's), the sizes of one pair before the
 * next pair's, so that however many are run, each size is. A token whose depth is unknown is left out.
 */
export function warmUpTrades(
  pools: readonly IndexedPool[],
  depthOf: (pool: IndexedPool, side: 0 | 1) => number | undefined,
): WarmUpTrade[] {
  const count = new Map<Address, number>();
  const deepest = new Map<Address, number>();
  for (const pool of pools)
    for (const side of [0, 1] as const) {
      const token = side === 0 ? pool.token0 : pool.token1;
      count.set(token, (count.get(token) ?? 0) + 1);
      const depth = depthOf(pool, side);
      if (depth !== undefined && Number.isFinite(depth) && depth > (deepest.get(token) ?? 0))
        deepest.set(token, depth);
    }
  const tokens = [...count.entries()]
    .filter(([token]) => deepest.has(token))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, WARM_UP_TOKENS)
    .map(([token]) => token);
  const trades: WarmUpTrade[] = [];
  for (const tokenIn of tokens)
    for (const tokenOut of tokens) {
      if (tokenIn === tokenOut) continue;
      for (const fraction of WARM_UP_FRACTIONS) {
        const amountIn = BigInt(Math.floor(deepest.get(tokenIn)! * fraction));
        if (amountIn > 0n) trades.push({ tokenIn, tokenOut, amountIn });
      }
    }
  return trades;
}
