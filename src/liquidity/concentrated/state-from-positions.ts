import { compress, position, usableWordRange } from "../math/tick-bitmap.ts";
import { getTickAtSqrtPrice } from "../math/tick-math.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

export type Position = { tickLower: number; tickUpper: number; liquidity: bigint };

/**
 * Builds a complete pool state (every bitmap word that holds a tick, every initialized tick) from
 * positions, the way the pool's mints would leave it. For tests and benchmarks that need pools with a
 * known shape; the chain is read with `read-state`.
 */
export function stateFromPositions(
  sqrtPriceX96: bigint,
  tickSpacing: number,
  positions: readonly Position[],
): ConcentratedPoolState {
  const tick = getTickAtSqrtPrice(sqrtPriceX96);
  const liquidityNet = new Map<number, bigint>();
  let liquidity = 0n;
  for (const { tickLower, tickUpper, liquidity: amount } of positions) {
    if (tickLower % tickSpacing !== 0 || tickUpper % tickSpacing !== 0 || tickLower >= tickUpper)
      throw new RangeError(`position [${tickLower}, ${tickUpper}) does not fit spacing ${tickSpacing}`);
    liquidityNet.set(tickLower, (liquidityNet.get(tickLower) ?? 0n) + amount);
    liquidityNet.set(tickUpper, (liquidityNet.get(tickUpper) ?? 0n) - amount);
    if (tickLower <= tick && tick < tickUpper) liquidity += amount;
  }
  const words = new Map<number, bigint>();
  for (const initialized of liquidityNet.keys()) {
    const { wordPos, bitPos } = position(compress(initialized, tickSpacing));
    words.set(wordPos, (words.get(wordPos) ?? 0n) | (1n << BigInt(bitPos)));
  }
  const usable = usableWordRange(tickSpacing);
  const bitmap = { from: usable.min, to: usable.max, words };
  return { sqrtPriceX96, tick, liquidity, tickSpacing, bitmap, liquidityNet };
}
