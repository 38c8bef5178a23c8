import { sortByScore, TopByScore } from "./by-score.ts";
import { GAS_MODEL } from "./gas-model.ts";
import { type Part, type Scorer, type SearchCurve, sharesPool } from "./search-curve.ts";

/** Shares (%) a candidate partner is tried at when choosing which paths to split over. */
export const PARTNER_SHARES = [1, 10, 33] as const;

/**
 * The `count` paths using none of the pools of `taken` that add the most to it: each candidate takes a share
 * p from the group's largest branch, p among PARTNER_SHARES, scored at its best p. Small shares count, so a
 * pool that can take only a sliver of the trade (a drained one) is still found. A path whose ceiling
 * (`SearchCurve.ceilingAt`) cannot beat the partners already held is not quoted: it could not be kept.
 */
export function addingPartners(
  curves: readonly SearchCurve[],
  taken: Part[],
  count: number,
  scoreOf: Scorer,
  gasToOut: (gas: number) => bigint,
): SearchCurve[] {
  const used = taken.flatMap(([curve]) => curve.poolNumbers);
  const largest = taken.reduce((most, part, i) => (part[1] > taken[most]![1] ? i : most), 0);
  // What the group scores with p taken from its largest branch (a branch's gas included).
  const rests = PARTNER_SHARES.filter((p) => p < taken[largest]![1]).flatMap((p) => {
    const rest = scoreOf(taken.map(([c, share], i) => [c, i === largest ? share - p : share]));
    return rest === undefined ? [] : [{ p, rest: rest - gasToOut(GAS_MODEL.branch) }];
  });
  const chosen = new TopByScore<SearchCurve>(count);
  for (const curve of curves) {
    if (sharesPool(curve.poolNumbers, used)) continue;
    const floor = chosen.floor();
    if (floor !== undefined && cannotBeat(curve, rests, floor)) continue;
    let gain: bigint | undefined;
    for (const { p, rest } of rests) {
      const added = curve.valueAt(p);
      if (added !== undefined && (gain === undefined || rest + added > gain)) gain = rest + added;
    }
    if (gain !== undefined) chosen.offer(curve, gain);
  }
  return chosen.items();
}

/**
 * Whether `curve` gains at most `floor` at every share of `rests`, by its ceiling: floats compared with a
 * margin far above their rounding (each conversion is within about 1e-16 relative).
 */
function cannotBeat(
  curve: SearchCurve,
  rests: readonly { p: number; rest: bigint }[],
  floor: bigint,
): boolean {
  const below = Number(floor);
  for (const { p, rest } of rests) {
    const most = Number(rest) + curve.ceilingAt(p);
    if (!(most + 1e-9 * (Math.abs(most) + Math.abs(below)) + 4 < below)) return false;
  }
  return true;
}

/**
 * Partners at an even share, for a trade so large that no path takes most of it: `(taken, percent, count)`
 * gives the `count` best paths alone at `percent` that use none of the pools of `taken`. The paths are
 * ranked at each share once (a stable sort of `ranked`, so ties keep its order) and walked until `count`
 * qualify.
 */
export function evenSharePartners(
  ranked: readonly SearchCurve[],
): (taken: SearchCurve[], percent: number, count: number) => SearchCurve[] {
  const byValueAt = new Map<number, SearchCurve[]>();
  return (taken, percent, count) => {
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
    const found: SearchCurve[] = [];
    for (const curve of order) {
      if (found.length === count) break;
      if (!sharesPool(curve.poolNumbers, used)) found.push(curve);
    }
    return found;
  };
}
