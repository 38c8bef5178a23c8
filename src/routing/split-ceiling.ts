import { GAS_MODEL } from "./gas-model.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import { type PathPoint, pathBounds, shareOf } from "./path-curve.ts";
import type { Path } from "./paths.ts";

/** Prices of the input the bound is taken at, beyond the best path's average rate: the best spot rates. */
const PRICES_TRIED = 8;
/** Paths (those that can deliver most) whose envelope slopes are tried as prices too. */
const SLOPES_TRIED = 4;
/**
 * Paths (those scoring best alone, gas counted) whose spot and average rates are tried as prices too: on a
 * small trade the best rates belong to long paths whose gas no split pays for, and the bound is tight only
 * at the rate of the path that wins alone.
 */
const WINNERS_TRIED = 4;

/**
 * The most any split of two or more branches could score, as a float: an upper bound by the allocation's
 * convex dual, which the split search compares with the best path alone (docs/rules.md, comparison rule 6:
 * pruned only where provably safe).
 *
 * Each path's output U(x) is concave, non-decreasing and at most its spot rate s times its input (the
 * product of its hops' `spotRate`: the price only moves against a trade, and pools round in their own
 * favour). From what is known of it, U(A) on the whole input and, with `withHalf`, U(h) on half of it, its
 * concave envelope E bounds it: min(s·x, U(A)), and with the half point also the lines through (h, U(h))
 * whose slopes concavity bounds (the chord to the origin beyond h, the chord to A before it). Each branch
 * also pays at least its path's gas crossing no tick (G), and the route the base and one more branch per
 * branch beyond the first. At any price λ of the input, a split's score is then at most λ·A plus, per
 * branch, max over x of E(x) − λ·x (at one of E's kinks, or 0) less G, less the route's gas. The best two
 * such terms over all paths, plus a third when it pays its branch, give the bound at λ; the least over a
 * few prices is returned. The chords are widened by what the pools' rounding can take off a concave curve
 * (`roundingSlack`); the relative margin covers the floats' rounding (about 1e-15).
 */
export function splitCeiling(
  curves: readonly { path: Path; pointAt: (percent: number) => PathPoint }[],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
  options: { withHalf?: boolean } = {},
): number {
  const whole = Number(amountIn);
  const half = Number(shareOf(amountIn, 50));
  const rows: { rate: number; kinks: [number, number][]; most: number; gas: number; alone: number }[] = [];
  for (const { path, pointAt } of curves) {
    const { rate, gas } = pathBounds(path);
    const atWhole = pointAt(100);
    const atHalf = options.withHalf && atWhole ? pointAt(50) : undefined;
    const kinks = envelopeKinks(
      rate,
      whole,
      atWhole && Number(atWhole.amountOut),
      atHalf && half > 0 ? [half, Number(atHalf.amountOut)] : undefined,
      atWhole ? roundingSlack(path, atWhole.ticksCrossed) : 0,
    );
    const most = kinks.reduce((max, [, e]) => Math.max(max, e), 0);
    // What the path scores alone on the whole input (only to choose prices to try).
    const alone = atWhole ? Number(atWhole.amountOut - gasToOut(atWhole.gas)) : -Infinity;
    rows.push({ rate, kinks, most, gas: Number(gasToOut(gas)), alone });
  }
  if (rows.length < 2) return -Infinity;
  rows.sort((a, b) => b.rate - a.rate);
  const routeGas = Number(gasToOut(GAS_MODEL.base + GAS_MODEL.branch));
  const branchGas = Number(gasToOut(GAS_MODEL.branch));
  const bestAverage = rows.reduce((max, row) => Math.max(max, row.most), 0) / whole;
  // The bound is least at a price where some path's best point changes: the slopes of its envelope.
  const slopes = [...rows]
    .sort((a, b) => b.most - a.most)
    .slice(0, SLOPES_TRIED)
    .flatMap((row) => {
      const kinks = [...row.kinks].sort((a, b) => a[0] - b[0]);
      return kinks.map(([x, e], i) => (i === 0 ? e / x : (e - kinks[i - 1]![1]) / (x - kinks[i - 1]![0])));
    })
    .filter((slope) => Number.isFinite(slope) && slope > 0);
  const winners = [...rows]
    .sort((a, b) => b.alone - a.alone)
    .slice(0, WINNERS_TRIED)
    .filter((row) => row.alone > -Infinity)
    .flatMap((row) => [row.rate, row.most / whole]);
  // The two cheapest paths' gas from each row on (rows by spot rate, highest first): at a price at or above
  // a row's rate, it and every later row can add nothing but their gas.
  const cheapest: [number, number][] = new Array(rows.length + 1);
  cheapest[rows.length] = [Infinity, Infinity];
  for (let i = rows.length - 1; i >= 0; i--) {
    const [first, second] = cheapest[i + 1]!;
    const gas = rows[i]!.gas;
    cheapest[i] = gas < first ? [gas, first] : gas < second ? [first, gas] : [first, second];
  }
  const branches = SEARCH_LIMITS.maxSplitBranches;
  let ceiling = Infinity;
  const prices = [bestAverage, ...rows.slice(0, PRICES_TRIED).map((row) => row.rate), ...slopes, ...winners];
  for (const price of prices) {
    // Each path's most a branch over it can add at this price (output beyond λ·x, less its gas), the best
    // first: one per branch a split may have.
    const outputs: number[] = [];
    const gases: number[] = [];
    const offer = (output: number, gas: number) => {
      let at = outputs.length;
      while (at > 0 && outputs[at - 1]! - gases[at - 1]! < output - gas) at--;
      if (at >= branches) return;
      outputs.splice(at, 0, output);
      gases.splice(at, 0, gas);
      if (outputs.length > branches) {
        outputs.pop();
        gases.pop();
      }
    };
    let i = 0;
    for (; i < rows.length && rows[i]!.rate > price; i++) {
      const { kinks, gas, most } = rows[i]!;
      // What a branch over it adds is at most its envelope's top (`most`): when that, less its gas, cannot
      // beat the last of the branches kept, `offer` would refuse it, so its kinks are not gone through.
      const last = outputs.length === branches ? outputs[branches - 1]! - gases[branches - 1]! : -Infinity;
      if (most - gas <= last) continue;
      let output = 0;
      for (let k = 0; k < kinks.length; k++) output = Math.max(output, kinks[k]![1] - price * kinks[k]![0]);
      offer(output, gas);
    }
    for (const gas of cheapest[i]!) if (Number.isFinite(gas)) offer(0, gas);
    let output = price * whole;
    let gas = routeGas;
    outputs.forEach((term, k) => {
      // Two branches at least; each further one only when it pays for its own branch.
      const extra = k >= 2 ? branchGas : 0;
      if (k >= 2 && term - gases[k]! - extra <= 0) return;
      output += term;
      gas += gases[k]! + extra;
    });
    ceiling = Math.min(ceiling, output * (1 + 1e-9) - gas * (1 - 1e-9));
  }
  return ceiling;
}

/**
 * The kinks (x, E(x)) of a path's concave envelope over [0, whole]: where max over x of E(x) − λ·x lies for
 * any λ (or at the origin, 0). `atWhole` is U(whole) (undefined: the path cannot fill it), `atHalf` the
 * point (h, U(h)).
 */
function envelopeKinks(
  rate: number,
  whole: number,
  atWhole: number | undefined,
  atHalf: [number, number] | undefined,
  slack: number,
): [number, number][] {
  if (!(rate > 0)) return [];
  const cap = atWhole === undefined ? rate * whole : Math.min(atWhole, rate * whole);
  if (!atHalf || atWhole === undefined || whole <= atHalf[0]) return [[cap / rate, cap]];
  const [h, uh] = atHalf;
  // Slopes concavity bounds: at most the chord from the origin beyond h, at least the chord to A before it.
  const beyond = uh / h;
  const before = (atWhole - uh) / (whole - h);
  const envelope = (x: number) =>
    Math.min(rate * x, cap, x <= h ? uh + before * (x - h) : uh + beyond * (x - h));
  const xs = [h, cap / rate, whole];
  if (rate > before) xs.push((uh - before * h) / (rate - before));
  if (beyond > 0) xs.push(h + (cap - uh) / beyond);
  return xs.filter((x) => x > 0 && x <= whole).map((x) => [x, envelope(x) + slack]);
}

/**
 * How far below the concave curve of its continuous math a path's exact output can fall, in output units:
 * each swap step rounds its input up and its output down by a unit, and a unit lost at one hop is worth
 * the later hops' spot rates at the output. The chords through exact points bound the continuous curve
 * only up to this.
 */
function roundingSlack(path: Path, ticksCrossed: readonly number[]): number {
  let slack = 3;
  let downstream = 1;
  for (let k = path.length - 1; k >= 0; k--) {
    // A hop's steps: one per tick crossed, one partial, and its fee's rounding.
    slack += 2 * ((ticksCrossed[k] ?? 0) + 3) * downstream;
    downstream *= path[k]!.spotRate;
  }
  return slack;
}
