import { hopGas } from "./gas-model.ts";
import type { Path } from "./paths.ts";

/** A path's output for one input; `undefined` when any hop cannot fill it (never an optimistic number). */
export type PathPoint = { amountOut: bigint; ticksCrossed: number[]; gas: number } | undefined;

/**
 * Quotes `amountIn` through every hop of a path in turn. A plain indexed loop: the split search quotes
 * thousands of paths a quote, and an entries() iterator allocates a pair for every hop.
 */
export function quotePath(path: Path, amountIn: bigint): PathPoint {
  let amount = amountIn;
  const ticksCrossed: number[] = [];
  let gas = 0;
  for (let index = 0; index < path.length; index++) {
    const edge = path[index]!;
    const hop = edge.quote(amount);
    if (!hop.ok) return undefined;
    amount = hop.amountOut;
    ticksCrossed.push(hop.ticksCrossed);
    gas += hopGas(edge.pool.kind, hop.ticksCrossed, index > 0 ? path[index - 1]!.pool.kind : undefined);
  }
  return { amountOut: amount, ticksCrossed, gas };
}

/**
 * A path's best rate and least gas, known without quoting it: the product of its hops' `spotRate` (no
 * amount gets a better average rate) and its gas crossing no tick (no amount costs less).
 */
export function pathBounds(path: Path): { rate: number; gas: number } {
  let rate = 1;
  let gas = 0;
  for (let i = 0; i < path.length; i++) {
    rate *= path[i]!.spotRate;
    gas += hopGas(path[i]!.pool.kind, 0, i > 0 ? path[i - 1]!.pool.kind : undefined);
  }
  return { rate, gas };
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
  // By whole percent (`undefined` is a quote: the path cannot fill that share); a Map, since most paths are
  // read at a few percents only.
  const points = new Map<number, PathPoint>([[0, { amountOut: 0n, ticksCrossed: [], gas: 0 }]]);
  return (percent) => {
    const whole = isWholePercent(percent);
    if (whole) {
      const known = points.get(percent);
      if (known !== undefined || points.has(percent)) return known;
    }
    const amount = shareOf(amountIn, percent);
    const point = amount > 0n ? quotePath(path, amount) : undefined;
    if (whole) points.set(percent, point);
    return point;
  };
}

/** Whether `percent` is a whole percent from 0 to 100: an index of a path's table of points. */
export const isWholePercent = (percent: number): boolean =>
  Number.isInteger(percent) && percent >= 0 && percent <= 100;
