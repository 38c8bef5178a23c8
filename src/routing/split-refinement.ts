import { climbAllocation } from "./allocation-climb.ts";
import { gridPoints, refine, slivers } from "./allocation-grid.ts";
import { best, sortByScore } from "./by-score.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import {
  type Allocation,
  groupKey,
  type Part,
  type Scorer,
  type SearchCurve,
  scoreAt,
} from "./search-curve.ts";

/** Coarse grid winners of each split shape refined at 1% (the grid can misjudge close neighbours). */
const REFINED_PER_SHAPE = 3;
const GRID = SEARCH_LIMITS.splitGridBps / 100;
const STEP = SEARCH_LIMITS.splitRefinementBps / 100;

/** Grid winners by split shape: groups of two paths, groups of three. */
export type GridWinners = Record<2 | 3, Allocation[]>;

/**
 * Each group's best point on the 10% grid, by shape, in the order of the groups. Grid points may leave a
 * branch empty, so the refinement can grow a branch from nothing; such a point is ranked with the empty
 * branch given 1%, so groups differing only there do not tie.
 */
export function bestOnGrid(groups: readonly SearchCurve[][], scoreOf: Scorer): GridWinners {
  const winners: GridWinners = { 2: [], 3: [] };
  for (const group of groups) {
    const onGrid = bestPoint(scoreOf, group, gridPoints(group.length, GRID, true));
    const found =
      onGrid && best([onGrid, ...slivers(onGrid.parts, STEP).map((p) => scoreAt(scoreOf, group, p))]);
    if (found) winners[group.length as 2 | 3].push(found);
  }
  return winners;
}

/**
 * The first of `points` scoring highest for `group` (as `best` over `scoreAt` each would find it), scored
 * through one parts array rewritten in place: the grid scores every group at every point, and allocating
 * an allocation per point was a fifth of the search on a busy chain's pairs.
 */
function bestPoint(
  scoreOf: Scorer,
  group: readonly SearchCurve[],
  points: readonly (readonly number[])[],
): Allocation | undefined {
  const parts: Part[] = group.map((curve) => [curve, 0]);
  let top: { percents: readonly number[]; score: bigint } | undefined;
  for (const percents of points) {
    for (let i = 0; i < parts.length; i++) parts[i]![1] = percents[i]!;
    const score = scoreOf(parts);
    if (score !== undefined && (!top || score > top.score)) top = { percents, score };
  }
  return top && { parts: group.map((curve, i) => [curve, top.percents[i]!] as Part), score: top.score };
}

/**
 * The best splits of one shape, best first, one per group: the best few grid winners refined at 1% around
 * their grid point, and the priced starts of that shape, each then climbed in moves of 8% down to 1%
 * (allocation-climb.ts). A point that still leaves a branch empty is a smaller shape, already among the
 * others, and is dropped.
 */
export function refinedSplits(
  shape: 2 | 3,
  winners: GridWinners,
  pricedStarts: readonly Allocation[],
  scoreOf: Scorer,
): Allocation[] {
  const routes = new Map<string, Allocation>();
  for (const found of [
    ...sortByScore(winners[shape])
      .slice(0, REFINED_PER_SHAPE)
      .map((start) => refine(start, scoreOf, STEP, GRID)),
    ...pricedStarts.filter((start) => start.parts.length === shape),
  ].map((start) => climbAllocation(start, scoreOf))) {
    if (found.parts.some(([, percent]) => percent <= 0)) continue;
    const key = groupKey(found.parts.map(([curve]) => curve));
    if (!routes.has(key) || routes.get(key)!.score < found.score) routes.set(key, found);
  }
  return sortByScore([...routes.values()]);
}
