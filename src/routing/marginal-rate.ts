import type { Ratio } from "../liquidity/math/ratio.ts";
import { kindOf } from "../liquidity/pool-kinds.ts";
import type { PoolSnapshot } from "../liquidity/read/load-pool-states.ts";

/**
 * A pool's marginal rate in one direction, exactly: output per unit of input for an infinitesimal trade at
 * the snapshot's price, after the pool's fee (docs/rules.md, price impact rule 1). V2: 997·reserveOut /
 * (1000·reserveIn). V3 and V4: the price sqrtPriceX96² / 2¹⁹² (token1 per token0), or its inverse selling
 * token1, times (1 − fee) with the fee in pips (V4: the LP fee composed with the direction's protocol fee,
 * as Pool.swap charges it; V3's protocol fee comes out of the LP fee and does not change the rate). Each
 * kind computes its own (`PoolKind.marginalRate`); `spotRate` in edge.ts is the same number as a float.
 */
export function marginalRate(snapshot: PoolSnapshot, zeroForOne: boolean): Ratio {
  return kindOf(snapshot).marginalRate(snapshot, zeroForOne);
}
