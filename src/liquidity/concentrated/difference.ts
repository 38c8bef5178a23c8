import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * The first field in which two concentrated snapshots differ: price, tick, liquidity, spacing, then the
 * kind's fees (`fees`, name and both values), the bitmap window and its words, each tick's liquidityNet.
 */
export function concentratedDifference(
  a: ConcentratedPoolState,
  b: ConcentratedPoolState,
  fees: readonly (readonly [string, number, number])[],
): string | undefined {
  for (const field of ["sqrtPriceX96", "tick", "liquidity", "tickSpacing"] as const)
    if (a[field] !== b[field]) return field;
  for (const [field, x, y] of fees) if (x !== y) return field;
  if (a.bitmap.from !== b.bitmap.from || a.bitmap.to !== b.bitmap.to) return "bitmap window";
  const sameMap = <T>(x: ReadonlyMap<number, T>, y: ReadonlyMap<number, T>) =>
    x.size === y.size && [...x].every(([key, value]) => y.get(key) === value);
  if (!sameMap(a.bitmap.words, b.bitmap.words)) return "bitmap words";
  return sameMap(a.liquidityNet, b.liquidityNet) ? undefined : "liquidityNet";
}
