import {
  alignTick,
  approximateTick,
  liquidityForAmounts,
  MAX_TICK,
  MIN_TICK,
  sqrtRatioAtTick,
} from "./price-math.ts";
import type { RangeSpec } from "./universe.ts";

export type Position = {
  tickLower: number;
  tickUpper: number;
  sqrtLower: bigint;
  sqrtUpper: bigint;
  /** Target token amounts for this position (its share of the pool's seed amounts). */
  amount0: bigint;
  amount1: bigint;
};

/** Turns a pool's relative range specs into spacing-aligned ticks around its initial price. */
export function positionsFor(
  sqrtPriceX96: bigint,
  spacing: number,
  ranges: readonly RangeSpec[],
  amount0: bigint,
  amount1: bigint,
): Position[] {
  const tick = approximateTick(sqrtPriceX96);
  return ranges.map((range) => {
    let tickLower: number;
    let tickUpper: number;
    if ("full" in range) {
      tickLower = Math.ceil(MIN_TICK / spacing) * spacing;
      tickUpper = Math.floor(MAX_TICK / spacing) * spacing;
    } else {
      tickLower = alignTick(tick - range.below, spacing);
      tickUpper = alignTick(tick + range.above, spacing) + spacing;
    }
    const share = BigInt(range.share);
    return {
      tickLower,
      tickUpper,
      sqrtLower: sqrtRatioAtTick(tickLower),
      sqrtUpper: sqrtRatioAtTick(tickUpper),
      amount0: (amount0 * share) / 100n,
      amount1: (amount1 * share) / 100n,
    };
  });
}

/** Liquidity for a position given the pool price, the most its target amounts allow. */
export function positionLiquidity(sqrtPriceX96: bigint, position: Position): bigint {
  return liquidityForAmounts(
    sqrtPriceX96,
    position.sqrtLower,
    position.sqrtUpper,
    position.amount0,
    position.amount1,
  );
}
