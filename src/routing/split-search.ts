import { climbAllocation } from "./allocation-climb.ts";
import { gridPoints, refine, slivers, wholePercents } from "./allocation-grid.ts";
import { exactRoutes, type SearchedRoute } from "./exact-route.ts";
import { GAS_MODEL } from "./gas-model.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import { isWholePercent, lazyPathCurve, type PathPoint } from "./path-curve.ts";
import { type Path, poolsOf } from "./paths.ts";
import { pricedGroups } from "./priced-groups.ts";
import { splitCeiling } from "./split-ceiling.ts";

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
/** Coarse grid winners of each split shape refined at 1% (the grid can misjudge close neighbours). */
const REFINED_PER_SHAPE = 3;
/** Groups of greatest worth at the input's marginal price kept at each end of its bracket (priced-groups.ts). */
const PRICED_GROUPS = 4;
/** Shares (%) each path's worth at a marginal price is read at; small ones find pools that take a sliver. */
const PRICED_SHARES = [1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100] as const;
/** Shares (%) a candidate partner is tried at when choosing which paths to split over. */
const PARTNER_SHARES = [1, 10, 33] as const;

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
 */
export function searchRoutes(paths: readonly Path[], options: SearchOptions): SearchedRoute[] {
  const { amountIn } = options;
  const gasToOut = rememberedGasCost(options.gasToOut);
  // Pools numbered, so that disjointness checks compare a path's one to three numbers.
  const poolNumbers = new Map<string, number>();
  const numberOf = (pool: string) => {
    let n = poolNumbers.get(pool);
    if (n === undefined) {
      n = poolNumbers.size;
      poolNumbers.set(pool, n);
    }
    return n;
  };
  const curves = paths.map((path, index) => {
    // Quoted on demand: most paths are read at 100%, 50% and 33% only (ranking), a few at many grid points.
    const pointAt = lazyPathCurve(path, amountIn);
    // By whole percent; a Map, not a 101-slot table: most paths are read at one to three percents.
    const values = new Map<number, bigint | undefined>();
    const pools = poolsOf(path);
    return {
      index,
      path,
      pointAt,
      /** The path's value at `percent` (output less gas), computed once: scoring reads it many times. */
      valueAt: (percent: number): bigint | undefined => {
        if (!isWholePercent(percent)) return value(pointAt(percent));
        const known = values.get(percent);
        if (known !== undefined || values.has(percent)) return known;
        const v = value(pointAt(percent));
        values.set(percent, v);
        return v;
      },
      poolNumbers: pools.map(numberOf),
    };
  });
  function value(point: PathPoint): bigint | undefined {
    return point ? point.amountOut - gasToOut(point.gas) : undefined;
  }

  type Curve = (typeof curves)[number];
  type Scored = { parts: [Curve, number][]; score: bigint };
  const scoreOf = (parts: [Curve, number][]): bigint | undefined => {
    let total = -gasToOut(GAS_MODEL.base + (parts.length - 1) * GAS_MODEL.branch);
    for (const [curve, percent] of parts) {
      const v = curve.valueAt(percent);
      if (v === undefined) return undefined;
      total += v;
    }
    return total;
  };

  const singles = sortByScore(
    curves.flatMap((curve): Scored[] => {
      const score = scoreOf([[curve, 100]]);
      return score === undefined ? [] : [{ parts: [[curve, 100]], score }];
    }),
  );

  // Pools already found short of loaded ticks: the caller reads them wider and searches again. Ranking's
  // shares are still quoted, for the pools that fall short only at a half or a third of the input.
  if (options.abandon?.()) {
    for (const curve of curves) for (const percent of [50, 33]) curve.valueAt(percent);
    return [];
  }

  // A trade small enough that no split can pay for its extra branch: the best paths alone are the answer,
  // proven from each path's quote on the whole input, or else on half of it too (most quotes are of this
  // kind), before any partner, grid or climb.
  const bestAlone = singles[0];
  const behind = bestAlone && Number(bestAlone.score - gasToOut(options.proposeWithinGas ?? 0));
  if (
    behind !== undefined &&
    // The whole input's quotes alone, then with each path's half too (a tighter bound, one quote a path).
    (splitCeiling(curves, amountIn, gasToOut) < behind ||
      splitCeiling(curves, amountIn, gasToOut, { withHalf: true }) < behind)
  )
    return options.abandon?.()
      ? []
      : exactRoutes(singles.slice(0, ROUTES_PER_SHAPE.single), amountIn, gasToOut);

  const ranked = curves
    .map((curve) => ({ curve, rank: maxOf([100, 50, 33].map((p) => curve.valueAt(p))) }))
    .filter((entry) => entry.rank !== undefined)
    .sort((a, b) => (a.rank! > b.rank! ? -1 : a.rank! < b.rank! ? 1 : 0))
    .map((entry) => entry.curve);
  if (options.abandon?.()) return [];
  const top = ranked.slice(0, options.splitCandidates ?? 8);
  const disjoint = (...group: Curve[]) =>
    group.every((a, i) => group.slice(i + 1).every((b) => !sharesPool(a.poolNumbers, b.poolNumbers)));

  // The groups to split over, each once (keyed by its paths), with at most maxSplitBranches members.
  const groups = new Map<string, Curve[]>();
  const addGroup = (group: Curve[]) => {
    if (group.length < 2 || group.length > SEARCH_LIMITS.maxSplitBranches || !disjoint(...group)) return;
    groups.set(
      group
        .map((curve) => curve.index)
        .sort((a, b) => a - b)
        .join(","),
      group,
    );
  };
  for (let i = 0; i < top.length; i++)
    for (let j = i + 1; j < top.length; j++) {
      addGroup([top[i]!, top[j]!]);
      for (let k = j + 1; k < top.length; k++) addGroup([top[i]!, top[j]!, top[k]!]);
    }
  // The paths using none of the pools of `taken` that add the most to it: each candidate takes a share p
  // from the group's largest branch, p among PARTNER_SHARES, scored at its best p. Small shares count, so a
  // pool that can take only a sliver of the trade (a drained one) is still found.
  const partners = (taken: [Curve, number][], count: number): Curve[] => {
    const used = taken.flatMap(([curve]) => curve.poolNumbers);
    const largest = taken.reduce((most, part, i) => (part[1] > taken[most]![1] ? i : most), 0);
    // What the group scores with p taken from its largest branch (a branch's gas included).
    const rests = PARTNER_SHARES.filter((p) => p < taken[largest]![1]).flatMap((p) => {
      const rest = scoreOf(taken.map(([c, share], i) => [c, i === largest ? share - p : share]));
      return rest === undefined ? [] : [{ p, rest: rest - gasToOut(GAS_MODEL.branch) }];
    });
    const chosen = new TopByScore<Curve>(count);
    for (const curve of curves) {
      if (sharesPool(curve.poolNumbers, used)) continue;
      let gain: bigint | undefined;
      for (const { p, rest } of rests) {
        const added = curve.valueAt(p);
        if (added !== undefined && (gain === undefined || rest + added > gain)) gain = rest + added;
      }
      if (gain !== undefined) chosen.offer(curve, gain);
    }
    return chosen.items();
  };
  // The best paths alone at an even share (`percent`) that use none of the pools of `taken`: partners for a
  // trade so large that no path takes most of it. The paths are ranked at each share once (a stable sort of
  // `ranked`, so ties keep its order) and walked until `count` qualify.
  const byValueAt = new Map<number, Curve[]>();
  const evenPartners = (taken: Curve[], percent: number, count: number): Curve[] => {
    let order = byValueAt.get(percent);
    if (!order) {
      order = sortByScore(
        ranked.flatMap((curve) => {
          const score = curve.valueAt(percent);
          return score === undefined ? [] : [{ curve, score }];
        }),
      ).map((entry) => entry.curve);
      byValueAt.set(percent, order);
    }
    const used = taken.flatMap((curve) => curve.poolNumbers);
    const found: Curve[] = [];
    for (const curve of order) {
      if (found.length === count) break;
      if (!sharesPool(curve.poolNumbers, used)) found.push(curve);
    }
    return found;
  };
  const threeWay = SEARCH_LIMITS.maxSplitBranches >= 3;
  for (const anchor of top) {
    // Partners that add most beside the anchor taking the bulk of the trade...
    for (const second of partners([[anchor, 100]], 2)) {
      addGroup([anchor, second]);
      if (!threeWay) continue;
      // ...the pair at its best grid point, then the third branch that adds most to it...
      const pair = best(
        [...gridPoints(2, SEARCH_LIMITS.splitGridBps / 100), ...PARTNER_SHARES.map((p) => [100 - p, p])].map(
          (percents) => scoreParts([anchor, second], percents),
        ),
      );
      if (pair) for (const third of partners(pair.parts, 1)) addGroup([anchor, second, third]);
    }
    // ...and partners at even shares, for trades no path can take most of.
    for (const second of evenPartners([anchor], 50, 2)) addGroup([anchor, second]);
    if (!threeWay) continue;
    for (const second of evenPartners([anchor], 33, 2))
      for (const third of evenPartners([anchor, second], 33, 1)) addGroup([anchor, second, third]);
  }

  // Groups priced by the input's marginal value (for trades that drain pools, whose best groups hold paths
  // that rank low alone), each with the shares it takes at that price as a start for the 1% climb. Only when
  // splitting matters: the best path alone loses to itself split in two halves.
  const half = bestAlone ? bestAlone.parts[0]![0].valueAt(50) : undefined;
  const pricedStarts: Scored[] = [];
  if (threeWay && bestAlone && half !== undefined && 2n * half > bestAlone.score + bestAlone.score / 200n) {
    const rows = curves.flatMap((curve) => {
      const values = PRICED_SHARES.map((p) => curve.valueAt(p));
      if (values.every((v) => v === undefined)) return [];
      return [
        {
          curve,
          pools: new Set(poolsOf(curve.path)),
          values: values.map((v) => (v === undefined ? -Infinity : Number(v))),
        },
      ];
    });
    for (const { members, shares } of pricedGroups(rows, PRICED_SHARES, {
      maxBranches: SEARCH_LIMITS.maxSplitBranches,
      count: PRICED_GROUPS,
    })) {
      addGroup(members);
      const { parts, score } = scoreParts(members, wholePercents(shares));
      if (score !== undefined) pricedStarts.push({ parts, score });
    }
  }

  // Each group's best point on the 10% grid; the best few groups of each shape refined at 1%.
  const grid = SEARCH_LIMITS.splitGridBps / 100;
  const step = SEARCH_LIMITS.splitRefinementBps / 100;
  const coarse: Record<2 | 3, Scored[]> = { 2: [], 3: [] };
  for (const group of groups.values()) {
    const onGrid = best(gridPoints(group.length, grid, true).map((percents) => scoreParts(group, percents)));
    const found = onGrid && best([onGrid, ...slivers(onGrid.parts, step).map((p) => scoreParts(group, p))]);
    if (found) coarse[group.length as 2 | 3].push(found);
  }
  function scoreParts(
    group: Curve[],
    percents: number[],
  ): { parts: [Curve, number][]; score: bigint | undefined } {
    const parts = group.map((curve, i) => [curve, percents[i]!] as [Curve, number]);
    return { parts, score: scoreOf(parts) };
  }
  // Refined, then climbed in 1% moves (with the priced starts); a point that still leaves a branch empty is
  // a smaller shape, already among the others. One route per group, its best.
  const refined = (shape: 2 | 3) => {
    const routes = new Map<string, Scored>();
    for (const found of [
      ...sortByScore(coarse[shape])
        .slice(0, REFINED_PER_SHAPE)
        .map((start) => refine(start, scoreOf, step, grid)),
      ...pricedStarts.filter((start) => start.parts.length === shape),
    ].map((start) => climbAllocation(start, scoreOf))) {
      if (found.parts.some(([, percent]) => percent <= 0)) continue;
      const key = found.parts
        .map(([curve]) => curve.index)
        .sort((a, b) => a - b)
        .join(",");
      if (!routes.has(key) || routes.get(key)!.score < found.score) routes.set(key, found);
    }
    return sortByScore([...routes.values()]);
  };

  const chosen = [
    ...singles.slice(0, ROUTES_PER_SHAPE.single),
    ...refined(2).slice(0, ROUTES_PER_SHAPE.pair),
    ...refined(3).slice(0, ROUTES_PER_SHAPE.triple),
  ];
  return exactRoutes(chosen, amountIn, gasToOut);
}

/**
 * The gas cost in output units, each gas figure converted once (scoring converts the same few figures
 * thousands of times a search); zero without a conversion (rank by output alone).
 */
function rememberedGasCost(gasToOut: ((gas: number) => bigint) | undefined): (gas: number) => bigint {
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
function sharesPool(a: readonly number[], b: readonly number[]): boolean {
  for (const pool of a) if (b.includes(pool)) return true;
  return false;
}

/**
 * The `count` best of the items offered, as `sortByScore(all).slice(0, count)` would give them (ties in the
 * order offered, as a stable sort keeps them), without keeping or sorting the rest.
 */
class TopByScore<T> {
  private readonly top: { item: T; score: bigint }[] = [];
  constructor(private readonly count: number) {}

  offer(item: T, score: bigint): void {
    const { top, count } = this;
    if (top.length === count && score <= top[top.length - 1]!.score) return;
    // After every item scoring at least as much: ties keep their offering order.
    let at = top.length;
    while (at > 0 && top[at - 1]!.score < score) at--;
    top.splice(at, 0, { item, score });
    if (top.length > count) top.pop();
  }

  items(): T[] {
    return this.top.map((entry) => entry.item);
  }
}

function sortByScore<T extends { score: bigint }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : 0));
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
