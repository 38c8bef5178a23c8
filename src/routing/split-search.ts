import { GAS_MODEL } from "./gas-model.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import { lazyPathCurve, type PathPoint, quotePath, shareOf } from "./path-curve.ts";
import { type Path, poolsOf } from "./paths.ts";

export type RouteBranch = { path: Path; amountIn: bigint; amountOut: bigint; ticksCrossed: number[] };

/** A route the search proposes: its branches with exact amounts, its output, gas estimate and score. */
export type SearchedRoute = {
  branches: RouteBranch[];
  amountOut: bigint;
  /** Search-time gas estimate (receipt-informed heuristic, docs/rules.md, comparison rule 17). */
  gas: number;
  /** amountOut minus the gas cost in output units (or amountOut alone without a conversion). */
  score: bigint;
};

export type SearchOptions = {
  amountIn: bigint;
  /**
   * Converts gas to output-token units at the shared gas price; undefined: rank by output alone
   * (docs/rules.md, comparison rule 5).
   */
  gasToOut?: (gas: number) => bigint;
  /** Paths considered for splits, ranked by how well they do alone at 100%, 50% and 33%. */
  splitCandidates?: number;
};

/**
 * The search (docs/rules.md, comparison rule 6): the best single path, then allocations of the input over two
 * or three pool-disjoint paths on a 10% grid, refined at 1% around the best grid point. Returns the best
 * route of each shape found (single, two branches, three branches), best first. No global-best guarantee.
 */
export function searchRoutes(paths: readonly Path[], options: SearchOptions): SearchedRoute[] {
  const { amountIn } = options;
  const gasToOut = options.gasToOut ?? (() => 0n);
  const curves = paths.map((path) => ({
    path,
    // Quoted on demand: most paths are read at 100%, 50% and 33% only (ranking), a few at many grid points.
    pointAt: lazyPathCurve(path, amountIn),
    pools: new Set(poolsOf(path)),
  }));
  const value = (point: PathPoint) => (point ? point.amountOut - gasToOut(point.gas) : undefined);

  type Curve = (typeof curves)[number];
  const scoreOf = (parts: [Curve, number][]): bigint | undefined => {
    let total = -gasToOut(GAS_MODEL.base + (parts.length - 1) * GAS_MODEL.branch);
    for (const [curve, percent] of parts) {
      const v = value(curve.pointAt(percent));
      if (v === undefined) return undefined;
      total += v;
    }
    return total;
  };

  const results: { parts: [Curve, number][]; score: bigint }[] = [];
  const single = best(
    curves.map((curve) => ({ parts: [[curve, 100]] as [Curve, number][], score: scoreOf([[curve, 100]]) })),
  );
  if (single) results.push(single);

  const ranked = [...curves]
    .map((curve) => ({ curve, rank: maxOf([100, 50, 33].map((p) => value(curve.pointAt(p)))) }))
    .filter((entry) => entry.rank !== undefined)
    .sort((a, b) => (a.rank! > b.rank! ? -1 : a.rank! < b.rank! ? 1 : 0))
    .slice(0, options.splitCandidates ?? 8)
    .map((entry) => entry.curve);
  const disjoint = (...group: Curve[]) =>
    group.every((a, i) => group.slice(i + 1).every((b) => [...a.pools].every((pool) => !b.pools.has(pool))));

  const grid = SEARCH_LIMITS.splitGridBps / 100;
  const pairs: { parts: [Curve, number][]; score: bigint | undefined }[] = [];
  const triples: typeof pairs = [];
  for (let i = 0; i < ranked.length; i++) {
    for (let j = i + 1; j < ranked.length; j++) {
      const [a, b] = [ranked[i]!, ranked[j]!];
      if (!disjoint(a, b)) continue;
      for (let x = grid; x < 100; x += grid)
        pairs.push({
          parts: [
            [a, x],
            [b, 100 - x],
          ],
          score: scoreOf([
            [a, x],
            [b, 100 - x],
          ]),
        });
      if (SEARCH_LIMITS.maxSplitBranches < 3) continue;
      for (let k = j + 1; k < ranked.length; k++) {
        const c = ranked[k]!;
        if (!disjoint(a, b, c)) continue;
        for (let x = grid; x < 100; x += grid) {
          for (let y = grid; x + y < 100; y += grid) {
            const parts: [Curve, number][] = [
              [a, x],
              [b, y],
              [c, 100 - x - y],
            ];
            triples.push({ parts, score: scoreOf(parts) });
          }
        }
      }
    }
  }
  for (const candidates of [pairs, triples]) {
    const coarse = best(candidates);
    if (coarse) results.push(refine(coarse, scoreOf, SEARCH_LIMITS.splitRefinementBps / 100, grid));
  }

  return results
    .map(({ parts }) =>
      exactRoute(
        parts.map(([curve, percent]) => [curve.path, percent]),
        amountIn,
        gasToOut,
      ),
    )
    .filter((route): route is SearchedRoute => route !== undefined)
    .sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : 0));
}

/** 1% local search around a grid point: each share moves within ±(grid - step), the last takes the rest. */
function refine<C>(
  start: { parts: [C, number][]; score: bigint },
  scoreOf: (parts: [C, number][]) => bigint | undefined,
  step: number,
  grid: number,
): { parts: [C, number][]; score: bigint } {
  let bestParts = start.parts;
  let bestScore = start.score;
  const curves = start.parts.map(([curve]) => curve);
  const free = start.parts.slice(0, -1).map(([, percent]) => percent);
  const visit = (index: number, chosen: number[]) => {
    if (index === free.length) {
      const last = 100 - chosen.reduce((sum, p) => sum + p, 0);
      if (last < step) return;
      const parts = curves.map((curve, i) => [curve, i < chosen.length ? chosen[i]! : last] as [C, number]);
      const score = scoreOf(parts);
      if (score !== undefined && score > bestScore) {
        bestScore = score;
        bestParts = parts;
      }
      return;
    }
    for (let p = free[index]! - grid + step; p <= free[index]! + grid - step; p += step) {
      if (p >= step) visit(index + 1, [...chosen, p]);
    }
  };
  visit(0, []);
  return { parts: bestParts, score: bestScore };
}

/** Re-quotes the chosen allocation at exact amounts (the last branch takes the remainder). */
function exactRoute(
  parts: [Path, number][],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): SearchedRoute | undefined {
  const branches: RouteBranch[] = [];
  let assigned = 0n;
  let gas = GAS_MODEL.base + (parts.length - 1) * GAS_MODEL.branch;
  for (const [index, [path, percent]] of parts.entries()) {
    const branchIn = index === parts.length - 1 ? amountIn - assigned : shareOf(amountIn, percent);
    assigned += branchIn;
    const point = quotePath(path, branchIn);
    if (!point) return undefined;
    gas += point.gas;
    branches.push({ path, amountIn: branchIn, amountOut: point.amountOut, ticksCrossed: point.ticksCrossed });
  }
  const amountOut = branches.reduce((sum, branch) => sum + branch.amountOut, 0n);
  return { branches, amountOut, gas, score: amountOut - gasToOut(gas) };
}

function best<T extends { score: bigint | undefined }>(
  items: readonly T[],
): (T & { score: bigint }) | undefined {
  let top: (T & { score: bigint }) | undefined;
  for (const item of items)
    if (item.score !== undefined && (!top || item.score > top.score)) top = item as T & { score: bigint };
  return top;
}

function maxOf(values: (bigint | undefined)[]): bigint | undefined {
  let top: bigint | undefined;
  for (const v of values) if (v !== undefined && (top === undefined || v > top)) top = v;
  return top;
}
