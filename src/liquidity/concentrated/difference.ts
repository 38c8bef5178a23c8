import { narrowed } from "./held-window.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * The first field in which two states of one pool at one block differ over the words the narrower of them
 * covers (a followed pool holds more words than a quote's direct read of it): price, tick, liquidity,
 * spacing, then the kind's fees (`fees`, name and both values), the bitmap window (one must hold the
 * other's words), its words, each tick's liquidityNet. Gross liquidity, which a read does not carry, is
 * not compared.
 */
export function concentratedDifference(
  a: ConcentratedPoolState,
  b: ConcentratedPoolState,
  fees: readonly (readonly [string, number, number])[],
): string | undefined {
  for (const field of ["sqrtPriceX96", "tick", "liquidity", "tickSpacing"] as const)
    if (a[field] !== b[field]) return field;
  for (const [field, x, y] of fees) if (x !== y) return field;
  const within = (x: ConcentratedPoolState, y: ConcentratedPoolState) =>
    x.bitmap.from >= y.bitmap.from && x.bitmap.to <= y.bitmap.to;
  const window = within(a, b) ? a.bitmap : within(b, a) ? b.bitmap : undefined;
  if (!window) return "bitmap window";
  const [x, y] = [narrowed(a, window), narrowed(b, window)];
  const sameMap = <T>(p: ReadonlyMap<number, T>, q: ReadonlyMap<number, T>) =>
    p.size === q.size && [...p].every(([key, value]) => q.get(key) === value);
  if (!sameMap(x.bitmap.words, y.bitmap.words)) return "bitmap words";
  return sameMap(x.liquidityNet, y.liquidityNet) ? undefined : "liquidityNet";
}
