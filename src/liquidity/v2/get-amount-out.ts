import { SwapMathError } from "../math/errors.ts";
import type { V2PoolSnapshot } from "./snapshot.ts";

/**
 * Output of a V2 exact-input swap with the pair's 0.30% fee, as UniswapV2Library.getAmountOut (what
 * Router02.getAmountsOut returns): floor(in * 997 * reserveOut / (reserveIn * 1000 + in * 997)).
 * Fee-on-transfer tokens deliver less than this; simulation, not this math, accounts for that.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n) throw new SwapMathError("invalidAmount", "V2 input must be positive");
  if (reserveIn <= 0n || reserveOut <= 0n)
    throw new SwapMathError("notEnoughLiquidity", "V2 pair has an empty reserve");
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

/** `getAmountOut` on a pair snapshot, selling token0 when `zeroForOne`. */
export function quoteV2ExactIn(pool: V2PoolSnapshot, zeroForOne: boolean, amountIn: bigint): bigint {
  return zeroForOne
    ? getAmountOut(amountIn, pool.reserve0, pool.reserve1)
    : getAmountOut(amountIn, pool.reserve1, pool.reserve0);
}
