import { GAS_MODEL } from "./gas-model.ts";
import { isWholePercent, lazyPathCurve, type PathPoint, pathBounds } from "./path-curve.ts";
import { type Path, poolsOf } from "./paths.ts";

/** One path as the split search reads it: quoted on demand at whole percents of the input. */
export type SearchCurve = {
  /** Its place among the searched paths: groups of paths are keyed by it. */
  index: number;
  path: Path;
  pointAt: (percent: number) => PathPoint;
  /** The path's value at `percent` (output less gas), computed once: scoring reads it many times. */
  valueAt: (percent: number) => bigint | undefined;
  /**
   * An upper bound on `valueAt(percent)` wherever the path fills it, as a float, with no swap quoted: the
   * output is at most the input's share at the path's spot rate (the product of its hops' `spotRate`, which
   * no amount beats: the price only moves against a trade and the pools round in their own favour), and gas
   * at least the path's crossing no tick. Lets a stage skip quoting a path that cannot matter to it.
   */
  ceilingAt: (percent: number) => number;
  /** Its pools, numbered, so that disjointness checks compare a path's one to three numbers. */
  poolNumbers: number[];
};

/** A branch of an allocation: a path and the percent of the input it takes. */
export type Part = [SearchCurve, number];
/** An allocation of the input over one to three paths, and its score. */
export type Allocation = { parts: Part[]; score: bigint };
/** An allocation's score: its branches' values less the route's gas; undefined when a branch cannot fill. */
export type Scorer = (parts: Part[]) => bigint | undefined;

/** The searched paths as curves over `amountIn`, their pools numbered across all of them. */
export function searchCurves(
  paths: readonly Path[],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): SearchCurve[] {
  const poolNumbers = new Map<string, number>();
  const numberOf = (pool: string) => {
    let n = poolNumbers.get(pool);
    if (n === undefined) {
      n = poolNumbers.size;
      poolNumbers.set(pool, n);
    }
    return n;
  };
  const value = (point: PathPoint): bigint | undefined =>
    point ? point.amountOut - gasToOut(point.gas) : undefined;
  const onePercent = Number(amountIn) / 100;
  return paths.map((path, index) => {
    // Quoted on demand: most paths are read at 100%, 50% and 33% only (ranking), a few at many grid points.
    const pointAt = lazyPathCurve(path, amountIn);
    // By whole percent, in a table made at the first read (scoring reads it thousands of times a search,
    // and an array index is cheaper than a Map's); `null` marks a share the path cannot fill.
    let values: (bigint | null | undefined)[] | undefined;
    return {
      index,
      path,
      pointAt,
      valueAt: (percent: number): bigint | undefined => {
        const known = values?.[percent];
        if (known !== undefined) return known ?? undefined;
        if (!isWholePercent(percent)) return value(pointAt(percent));
        values ??= new Array(101);
        const v = value(pointAt(percent));
        values[percent] = v ?? null;
        return v;
      },
      ceilingAt: pathCeiling(path, onePercent, gasToOut),
      poolNumbers: poolsOf(path).map(numberOf),
    };
  });
}

/**
 * `SearchCurve.ceilingAt` for one path: `onePercent` is a hundredth of the input as a float. The rate is
 * widened by 1e-9, and the bound by a unit and by 1e-15 of the gas cost, for the floats' rounding (each
 * about 1e-16 relative: a cost past 2^53 converts to a float several units off, and so does the difference)
 * and the share's rounding down; gas is at least its no-tick figure, and `gasToOut` never decreases with gas.
 */
function pathCeiling(
  path: Path,
  onePercent: number,
  gasToOut: (gas: number) => bigint,
): (percent: number) => number {
  const { rate, gas } = pathBounds(path);
  if (!(rate >= 0 && Number.isFinite(rate))) return () => Infinity;
  const perPercent = rate * onePercent * (1 + 1e-9);
  const cost = Number(gasToOut(gas));
  const margin = 1 + cost * 1e-15;
  return (percent) => perPercent * percent + margin - cost;
}

/** Scores allocations: the base gas and one branch's more per branch beyond the first, in output units. */
export function allocationScorer(gasToOut: (gas: number) => bigint): Scorer {
  return (parts) => {
    let total = -gasToOut(GAS_MODEL.base + (parts.length - 1) * GAS_MODEL.branch);
    for (const [curve, percent] of parts) {
      const v = curve.valueAt(percent);
      if (v === undefined) return undefined;
      total += v;
    }
    return total;
  };
}

/** A group of paths at the given percents (index for index), scored. */
export function scoreAt(
  scoreOf: Scorer,
  group: readonly SearchCurve[],
  percents: readonly number[],
): { parts: Part[]; score: bigint | undefined } {
  const parts = group.map((curve, i) => [curve, percents[i]!] as Part);
  return { parts, score: scoreOf(parts) };
}

/** A group's key: its paths' indexes, in ascending order (whatever the order of the group). */
export function groupKey(group: readonly SearchCurve[]): string {
  return group
    .map((curve) => curve.index)
    .sort((a, b) => a - b)
    .join(",");
}

/**
 * The gas cost in output units, each gas figure converted once (scoring converts the same few figures
 * thousands of times a search); zero without a conversion (rank by output alone).
 */
export function rememberedGasCost(gasToOut: ((gas: number) => bigint) | undefined): (gas: number) => bigint {
  if (!gasToOut) return () => 0n;
  const costs = new Map<number, bigint>();
  return (gas) => {
    let cost = costs.get(gas);
    if (cost === undefined) {
      cost = gasToOut(gas);
      costs.set(gas, cost);
    }
    return cost;
  };
}

/** Whether two lists of pool numbers (a path's one to three, or a group's up to nine) share a pool. */
export function sharesPool(a: readonly number[], b: readonly number[]): boolean {
  for (const pool of a) if (b.includes(pool)) return true;
  return false;
}
