import { gridPoints, wholePercents } from "./allocation-grid.ts";
import { best } from "./by-score.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import { poolsOf } from "./paths.ts";
import { pricedGroups } from "./priced-groups.ts";
import {
  type Allocation,
  groupKey,
  type Scorer,
  type SearchCurve,
  scoreAt,
  sharesPool,
} from "./search-curve.ts";
import { addingPartners, evenSharePartners, PARTNER_SHARES } from "./split-partners.ts";

/** Groups of greatest worth at the input's marginal price kept at each end of its bracket (priced-groups.ts). */
const PRICED_GROUPS = 4;
/** Shares (%) each path's worth at a marginal price is read at; small ones find pools that take a sliver. */
const PRICED_SHARES = [1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100] as const;
const THREE_WAY = SEARCH_LIMITS.maxSplitBranches >= 3;

/** The groups of paths to split over, and the priced groups' allocations to climb from. */
export type ProposedSplits = { groups: SearchCurve[][]; pricedStarts: Allocation[] };

/**
 * The groups of pool-disjoint paths the split search tries, each once: every pair and triple among `top`
 * (the best few paths for splitting), the groups grown from each of them as an anchor, and, when splitting
 * matters, the groups priced by the input's marginal value with the shares they take at that price.
 */
export function proposeSplits(input: {
  curves: readonly SearchCurve[];
  /** The paths in their ranking for splitting (split-search.ts), best first. */
  ranked: readonly SearchCurve[];
  top: readonly SearchCurve[];
  /** The best path alone, if any path fills the whole input. */
  bestAlone: Allocation | undefined;
  scoreOf: Scorer;
  gasToOut: (gas: number) => bigint;
}): ProposedSplits {
  const groups = new SplitGroups();
  const { top } = input;
  for (let i = 0; i < top.length; i++)
    for (let j = i + 1; j < top.length; j++) {
      groups.add([top[i]!, top[j]!]);
      for (let k = j + 1; k < top.length; k++) groups.add([top[i]!, top[j]!, top[k]!]);
    }
  growFromAnchors(input, groups);
  const pricedStarts = pricedSplits(input, groups);
  return { groups: groups.all(), pricedStarts };
}

/**
 * From each anchor, groups grown greedily among the paths using none of the pools already taken: the
 * partners that add most beside the anchor taking the bulk of the trade (and the third that adds most to
 * that pair at its best grid point), and the partners best at an even share, for trades no path can take
 * most of.
 */
function growFromAnchors(input: Parameters<typeof proposeSplits>[0], groups: SplitGroups): void {
  const { curves, ranked, top, scoreOf, gasToOut } = input;
  const partners = (taken: Allocation["parts"], count: number) =>
    addingPartners(curves, taken, count, scoreOf, gasToOut);
  const evenPartners = evenSharePartners(ranked);
  for (const anchor of top) {
    for (const second of partners([[anchor, 100]], 2)) {
      groups.add([anchor, second]);
      if (!THREE_WAY) continue;
      const pair = best(
        [...gridPoints(2, SEARCH_LIMITS.splitGridBps / 100), ...PARTNER_SHARES.map((p) => [100 - p, p])].map(
          (percents) => scoreAt(scoreOf, [anchor, second], percents),
        ),
      );
      if (pair) for (const third of partners(pair.parts, 1)) groups.add([anchor, second, third]);
    }
    for (const second of evenPartners([anchor], 50, 2)) groups.add([anchor, second]);
    if (!THREE_WAY) continue;
    for (const second of evenPartners([anchor], 33, 2))
      for (const third of evenPartners([anchor, second], 33, 1)) groups.add([anchor, second, third]);
  }
}

/**
 * Groups priced by the input's marginal value (for trades that drain pools, whose best groups hold paths
 * that rank low alone), each added with the shares it takes at that price as a start for the 1% climb.
 * Only when splitting matters: the best path alone loses to itself split in two halves.
 */
function pricedSplits(input: Parameters<typeof proposeSplits>[0], groups: SplitGroups): Allocation[] {
  const { curves, bestAlone, scoreOf } = input;
  const half = bestAlone ? bestAlone.parts[0]![0].valueAt(50) : undefined;
  if (
    !THREE_WAY ||
    !bestAlone ||
    half === undefined ||
    !(2n * half > bestAlone.score + bestAlone.score / 200n)
  )
    return [];
  // Each path's values at the priced shares are quoted only where its ceiling leaves them in question.
  const rows = curves.map((curve) => ({
    curve,
    pools: new Set(poolsOf(curve.path)),
    valueAt: (k: number) => {
      const v = curve.valueAt(PRICED_SHARES[k]!);
      return v === undefined ? -Infinity : Number(v);
    },
    ceilings: PRICED_SHARES.map((p) => curve.ceilingAt(p)),
  }));
  const starts: Allocation[] = [];
  for (const { members, shares } of pricedGroups(rows, PRICED_SHARES, {
    maxBranches: SEARCH_LIMITS.maxSplitBranches,
    count: PRICED_GROUPS,
  })) {
    groups.add(members);
    const { parts, score } = scoreAt(scoreOf, members, wholePercents(shares));
    if (score !== undefined) starts.push({ parts, score });
  }
  return starts;
}

/**
 * Groups of 2 to maxSplitBranches pool-disjoint paths, each once (keyed by its paths: a group added again
 * takes the place of the first, with its own order of paths), in the order first added.
 */
class SplitGroups {
  private readonly groups = new Map<string, SearchCurve[]>();

  add(group: SearchCurve[]): void {
    if (group.length < 2 || group.length > SEARCH_LIMITS.maxSplitBranches || !disjoint(group)) return;
    this.groups.set(groupKey(group), group);
  }

  all(): SearchCurve[][] {
    return [...this.groups.values()];
  }
}

function disjoint(group: readonly SearchCurve[]): boolean {
  return group.every((a, i) => group.slice(i + 1).every((b) => !sharesPool(a.poolNumbers, b.poolNumbers)));
}
