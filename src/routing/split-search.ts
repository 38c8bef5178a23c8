import { sortByScore } from "./by-score.ts";
import { exactRoutes, type SearchedRoute } from "./exact-route.ts";
import type { Path } from "./paths.ts";
import {
  type Allocation,
  allocationScorer,
  rememberedGasCost,
  type Scorer,
  type SearchCurve,
  searchCurves,
} from "./search-curve.ts";
import { splitCeiling } from "./split-ceiling.ts";
import { proposeSplits } from "./split-groups.ts";
import { bestOnGrid, refinedSplits } from "./split-refinement.ts";

export type { RouteBranch, SearchedRoute } from "./exact-route.ts";

export type SearchOptions = {
  amountIn: bigint;
  /**
   * Converts gas to output-token units at the shared gas price; undefined: rank by output alone
   * (docs/rules.md, comparison rule 5).
   */
  gasToOut?: (gas: number) => bigint;
  /** Paths whose every pool-disjoint pair and triple is tried, ranked by how well they do alone. */
  splitCandidates?: number;
  /**
   * Gas within which a route scoring behind the best is still worth proposing (the caller simulates such
   * close routes: SIMULATION_MARGIN_GAS). Splits are not searched at all when the most any split could
   * score is further behind the best path alone than this. 0 when not given.
   */
  proposeWithinGas?: number;
  /**
   * Asked once every path has been quoted on the whole input, and again before the split search: true stops
   * the search with no routes, once every path is also quoted at the other shares that rank it (a half, a
   * third), for a caller that will search again over other state (its pools' quotes ran past their loaded
   * ticks, and it reads them wider first).
   */
  abandon?: () => boolean;
};

/** How many routes of each shape the search hands on to be simulated (distinct paths or path groups). */
const ROUTES_PER_SHAPE = { single: 3, pair: 2, triple: 1 } as const;
/** Paths split over in every pool-disjoint pair and triple, unless `splitCandidates` says otherwise. */
const SPLIT_CANDIDATES = 8;

/**
 * The search (docs/rules.md, comparison rule 6): every path alone, then allocations of the input over two or
 * three pool-disjoint paths on a 10% grid, the best few refined at 1% around their grid point.
 *
 * Which paths are split over is chosen with pool-disjointness in mind: every disjoint pair and triple among
 * the best few paths alone, and from each of those as an anchor, groups grown greedily among the paths using
 * none of the pools already taken: the one adding most when given a 1, 10 or 33% share beside the group, and
 * the one best at an even share. These find the partners that rank low alone (when the best paths share a
 * pool or all end in one bottleneck pool, or a pool can take only a sliver of a draining trade). When the
 * trade is large enough that splitting matters, the groups of greatest worth at a marginal price of the
 * input (the allocation's convex dual, priced-groups.ts) are added too, which finds draining-size groups of
 * paths that rank low alone. Grid points may leave a branch empty, so the refinement can grow a branch from
 * nothing; such a point is ranked with the empty branch given 1%, so groups differing only there do not tie.
 *
 * The refined points, and the priced groups from the shares their price gives them, are then climbed in
 * moves of 8% down to 1% between branches (allocation-climb.ts): for concave curves that ends at the best
 * whole-percent allocation of the group, however far from the grid point it lies.
 *
 * Returns a few of the best routes of each shape (ROUTES_PER_SHAPE), best first, so that simulation, not the
 * gas heuristic alone, decides between close alternatives (rule 17). No global-best guarantee.
 *
 * The stages: the paths as curves (search-curve.ts), ranked alone; the proof that no split can pay, which
 * ends the search; the ranking for splitting; the groups to split over (split-groups.ts, split-partners.ts);
 * each group's best grid point, then the refinement and climb (split-refinement.ts); the chosen routes
 * re-quoted at exact amounts (exact-route.ts).
 */
export function searchRoutes(paths: readonly Path[], options: SearchOptions): SearchedRoute[] {
  const { amountIn } = options;
  const gasToOut = rememberedGasCost(options.gasToOut);
  const curves = searchCurves(paths, amountIn, gasToOut);
  const scoreOf = allocationScorer(gasToOut);
  const singles = rankAlone(curves, scoreOf);

  // Pools already found short of loaded ticks: the caller reads them wider and searches again. Ranking's
  // shares are still quoted, for the pools that fall short only at a half or a third of the input.
  if (options.abandon?.()) {
    for (const curve of curves) for (const percent of [50, 33]) curve.valueAt(percent);
    return [];
  }
  if (splitsCannotPay(curves, singles[0], amountIn, gasToOut, options.proposeWithinGas ?? 0))
    return options.abandon?.()
      ? []
      : exactRoutes(singles.slice(0, ROUTES_PER_SHAPE.single), amountIn, gasToOut);

  const ranked = rankForSplitting(curves);
  if (options.abandon?.()) return [];
  const top = ranked.slice(0, options.splitCandidates ?? SPLIT_CANDIDATES);
  const { groups, pricedStarts } = proposeSplits({
    curves,
    ranked,
    top,
    bestAlone: singles[0],
    scoreOf,
    gasToOut,
  });
  const winners = bestOnGrid(groups, scoreOf);
  const chosen = [
    ...singles.slice(0, ROUTES_PER_SHAPE.single),
    ...refinedSplits(2, winners, pricedStarts, scoreOf).slice(0, ROUTES_PER_SHAPE.pair),
    ...refinedSplits(3, winners, pricedStarts, scoreOf).slice(0, ROUTES_PER_SHAPE.triple),
  ];
  return exactRoutes(chosen, amountIn, gasToOut);
}

/** Every path alone on the whole input, best first; paths that cannot fill it are left out. */
function rankAlone(curves: readonly SearchCurve[], scoreOf: Scorer): Allocation[] {
  return sortByScore(
    curves.flatMap((curve): Allocation[] => {
      const score = scoreOf([[curve, 100]]);
      return score === undefined ? [] : [{ parts: [[curve, 100]], score }];
    }),
  );
}

/**
 * Whether the trade is small enough that no split can pay for its extra branch, so the best paths alone
 * are the answer: proven from each path's quote on the whole input, or else on half of it too (most quotes
 * are of this kind), before any partner, grid or climb. A split within `proposeWithinGas` of the best path
 * alone still counts as paying.
 */
function splitsCannotPay(
  curves: readonly SearchCurve[],
  bestAlone: Allocation | undefined,
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
  proposeWithinGas: number,
): boolean {
  const behind = bestAlone && Number(bestAlone.score - gasToOut(proposeWithinGas));
  return (
    behind !== undefined &&
    // The whole input's quotes alone, then with each path's half too (a tighter bound, one quote a path).
    (splitCeiling(curves, amountIn, gasToOut) < behind ||
      splitCeiling(curves, amountIn, gasToOut, { withHalf: true }) < behind)
  );
}

/** The paths by their best value at the whole input, a half or a third; paths filling none are left out. */
function rankForSplitting(curves: readonly SearchCurve[]): SearchCurve[] {
  return curves
    .map((curve) => ({ curve, rank: maxOf([100, 50, 33].map((p) => curve.valueAt(p))) }))
    .filter((entry) => entry.rank !== undefined)
    .sort((a, b) => (a.rank! > b.rank! ? -1 : a.rank! < b.rank! ? 1 : 0))
    .map((entry) => entry.curve);
}

function maxOf(values: (bigint | undefined)[]): bigint | undefined {
  let top: bigint | undefined;
  for (const v of values) if (v !== undefined && (top === undefined || v > top)) top = v;
  return top;
}
