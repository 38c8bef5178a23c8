import type { Ratio } from "../math/ratio.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

const PIPS = 1_000_000n;
const Q192 = 1n << 192n;

/**
 * A concentrated pool's marginal rate in one direction, exactly (docs/rules.md, price impact rule 1): the
 * price sqrtPriceX96² / 2¹⁹² (token1 per token0), or its inverse selling token1, times (1 − fee) with the
 * fee in pips as the kind charges it in that direction.
 */
export function concentratedMarginalRate(
  snapshot: Pick<ConcentratedPoolState, "sqrtPriceX96">,
  zeroForOne: boolean,
  fee: bigint,
): Ratio {
  const priceNum = snapshot.sqrtPriceX96 * snapshot.sqrtPriceX96;
  return zeroForOne
    ? { num: priceNum * (PIPS - fee), den: Q192 * PIPS }
    : { num: Q192 * (PIPS - fee), den: priceNum * PIPS };
}

/** `concentratedMarginalRate` as a float, exact to about 1e-15 relative (routing's `spotRate`). */
export function concentratedSpotRate(
  snapshot: Pick<ConcentratedPoolState, "sqrtPriceX96">,
  zeroForOne: boolean,
  feePips: number,
): number {
  const sqrtPrice = Number(snapshot.sqrtPriceX96) / 2 ** 96;
  const price = sqrtPrice * sqrtPrice; // token1 per token0
  if (price === 0) return 0;
  return (zeroForOne ? price : 1 / price) * (1 - feePips / 1_000_000);
}

/**
 * How much of its `side` token a concentrated pool holds at its price, in raw units: the virtual reserve
 * its in-range liquidity is worth there. For ranking pools, not for quoting.
 */
export function concentratedDepth(
  state: Pick<ConcentratedPoolState, "sqrtPriceX96" | "liquidity">,
  side: 0 | 1,
): number | undefined {
  const price = Number(state.sqrtPriceX96) / 2 ** 96;
  if (price === 0) return undefined;
  const liquidity = Number(state.liquidity);
  return side === 0 ? liquidity / price : liquidity * price;
}
