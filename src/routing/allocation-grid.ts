/** Whole-percent allocations of an input over a group of branches: the coarse grid and its 1% refinement. */

/**
 * Every allocation of 100% over `branches` shares, each a positive multiple of `grid`; `withEmpty` also
 * allows empty shares, so refinement can grow a branch from nothing (a pool that takes only a sliver). The
 * same few grids serve every search, so each is built once (never modify what it returns).
 */
export function gridPoints(
  branches: number,
  grid: number,
  withEmpty = false,
): readonly (readonly number[])[] {
  const key = `${branches}/${grid}/${withEmpty}`;
  let points = grids.get(key);
  if (!points) {
    points = buildGrid(branches, grid, withEmpty);
    grids.set(key, points);
  }
  return points;
}

const grids = new Map<string, readonly (readonly number[])[]>();

function buildGrid(branches: number, grid: number, withEmpty: boolean): number[][] {
  if (branches === 1) return [[100]];
  const points: number[][] = [];
  const visit = (chosen: number[], left: number) => {
    if (chosen.length === branches - 1) {
      if (withEmpty || left > 0) points.push([...chosen, left]);
      return;
    }
    for (let p = withEmpty ? 0 : grid; withEmpty ? p <= left : p < left; p += grid)
      visit([...chosen, p], left - p);
  };
  visit([], 100);
  return points;
}

/**
 * A grid point with an empty branch scores the same whatever path that branch holds, so groups differing
 * only there tie: each empty branch given `step` from the largest, for the ranking to tell them apart.
 */
export function slivers<C>(parts: readonly [C, number][], step: number): number[][] {
  const percents = parts.map(([, percent]) => percent);
  const largest = percents.indexOf(Math.max(...percents));
  return percents.flatMap((percent, empty) =>
    percent > 0 ? [] : [percents.map((p, i) => (i === empty ? step : i === largest ? p - step : p))],
  );
}

/** Shares (any positive numbers) as whole percents adding up to 100, each at least 1. */
export function wholePercents(shares: readonly number[]): number[] {
  const total = shares.reduce((sum, share) => sum + share, 0);
  const percents = shares.map((share) => Math.max(1, Math.floor((share * 100) / total)));
  const largest = percents.indexOf(Math.max(...percents));
  percents[largest]! += 100 - percents.reduce((sum, p) => sum + p, 0);
  return percents;
}

/** 1% local search around a grid point: each share moves within ±(grid - step), the last takes the rest. */
export function refine<C>(
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
