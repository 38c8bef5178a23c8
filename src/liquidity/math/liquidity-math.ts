import { maxUint128 } from "viem";
import { SwapMathError } from "./errors.ts";

/**
 * Applies a signed liquidity delta to a uint128 liquidity, reverting on underflow or overflow, as
 * LiquidityMath.addDelta (v3-core "LS"/"LA", v4-core SafeCast). Used when a swap crosses a tick.
 */
export function addDelta(liquidity: bigint, delta: bigint): bigint {
  const result = liquidity + delta;
  if (result < 0n || result > maxUint128)
    throw new SwapMathError("liquidityOverflow", `liquidity ${liquidity} + ${delta} leaves uint128`);
  return result;
}
