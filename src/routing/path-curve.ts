import { hopGas } from "./gas-model.ts";
import type { Path } from "./paths.ts";

/** A path's output for one input; `undefined` when any hop cannot fill it (never an optimistic number). */
export type PathPoint = { amountOut: bigint; ticksCrossed: number[]; gas: number } | undefined;

/** Quotes `amountIn` through every hop of a path in turn. */
export function quotePath(path: Path, amountIn: bigint): PathPoint {
  let amount = amountIn;
  const ticksCrossed: number[] = [];
  let gas = 0;
  for (const [index, edge] of path.entries()) {
    const hop = edge.quote(amount);
    if (!hop.ok) return undefined;
    amount = hop.amountOut;
    ticksCrossed.push(hop.ticksCrossed);
    gas += hopGas(edge.pool.kind, hop.ticksCrossed, path[index - 1]?.pool.kind);
  }
  return { amountOut: amount, ticksCrossed, gas };
}

/** The share of `amountIn` that `percent` (0..100) stands for; 100 is exactly `amountIn`. */
export const shareOf = (amountIn: bigint, percent: number): bigint => (amountIn * BigInt(percent)) / 100n;

/**
 * A path's outputs at every whole percent of `amountIn` (index = percent): the table the split search reads,
 * so trying an allocation costs lookups, not swaps.
 */
export function pathCurve(path: Path, amountIn: bigint): PathPoint[] {
  const pointAt = lazyPathCurve(path, amountIn);
  return Array.from({ length: 101 }, (_, percent) => pointAt(percent));
}

/**
 * `pathCurve` on demand: each percent is quoted the first time it is read and then remembered, with the
 * same values. The split search reads most paths at three percents only, so it builds few whole curves.
 */
export function lazyPathCurve(path: Path, amountIn: bigint): (percent: number) => PathPoint {
  // Indexed by percent; `null` until quoted (`undefined` is a quote: the path cannot fill that share).
  const points: (PathPoint | null)[] = new Array(101).fill(null);
  points[0] = { amountOut: 0n, ticksCrossed: [], gas: 0 };
  return (percent) => {
    const known = isWholePercent(percent) ? points[percent]! : null;
    if (known !== null) return known;
    const amount = shareOf(amountIn, percent);
    const point = amount > 0n ? quotePath(path, amount) : undefined;
    if (isWholePercent(percent)) points[percent] = point;
    return point;
  };
}

/** Whether `percent` is a whole percent from 0 to 100: an index of a path's table of points. */
export const isWholePercent = (percent: number): boolean =>
  Number.isInteger(percent) && percent >= 0 && percent <= 100;
