import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import type { Edge } from "../src/routing/edge.ts";
import { quotePath, shareOf } from "../src/routing/path-curve.ts";
import { type Path, poolsOf } from "../src/routing/paths.ts";

/**
 * The yardsticks route quality is judged by, computed from the pools' exact curves and sharing none of the
 * search's shortcuts: every path's output at every whole percent of the input, an exhaustive 1% sweep over
 * every pool-disjoint group of up to 3 paths (pruned only by a bound that is provably safe), and an upper
 * bound on any split at all (continuous, any number of branches) from the curves' concavity.
 */

/** A path's exact output at 0..100% of the input (undefined where it cannot fill), and its rate at zero. */
export type ReferenceCurve = {
  path: Path;
  pools: Set<string>;
  /** Output at k% of the input, k = 0..100. */
  points: (bigint | undefined)[];
  /** An upper bound on the path's marginal output per input unit at zero input (spot price less fees). */
  spotRate: number;
  /**
   * How far below the continuous (unrounded) output a sample can be: each hop floors its output by under a
   * unit, carried through the later hops at their rates.
   */
  roundingSlack: number;
};

export function referenceCurve(
  path: Path,
  amountIn: bigint,
  snapshotOf: (edge: Edge) => PoolSnapshot,
): ReferenceCurve {
  const points: (bigint | undefined)[] = [0n];
  for (let percent = 1; percent <= 100; percent++)
    points.push(quotePath(path, shareOf(amountIn, percent))?.amountOut);
  // Float rates, widened by a millionth so rounding can only loosen the bound.
  const rates = path.map((edge) => edgeSpotRate(edge, snapshotOf(edge)) * (1 + 1e-6));
  const spotRate = rates.reduce((product, rate) => product * rate, 1);
  let roundingSlack = 0;
  let carried = 1;
  for (let hop = rates.length - 1; hop >= 0; hop--) {
    roundingSlack += carried;
    carried *= rates[hop]!;
  }
  return { path, pools: new Set(poolsOf(path)), points, spotRate, roundingSlack };
}

/**
 * The marginal output per input unit of an infinitesimal swap: the price less the pool's fee. Exact-input
 * output is concave in the input (each further unit gets a worse price), so no amount does better.
 */
function edgeSpotRate(edge: Edge, snapshot: PoolSnapshot): number {
  if (snapshot.kind === "v2") {
    const [reserveIn, reserveOut] = edge.zeroForOne
      ? [snapshot.reserve0, snapshot.reserve1]
      : [snapshot.reserve1, snapshot.reserve0];
    return ((Number(reserveOut) / Number(reserveIn)) * 997) / 1000;
  }
  const price = (Number(snapshot.sqrtPriceX96) / 2 ** 96) ** 2;
  // V4's protocol fee is left out: a smaller fee only raises the bound.
  const feePips = snapshot.kind === "v3" ? snapshot.fee : snapshot.lpFee;
  return (edge.zeroForOne ? price : 1 / price) * (1 - feePips / 1e6);
}

/**
 * An upper bound on the output of any split of the input over up to `maxBranches` pool-disjoint paths, in
 * any proportions (not only whole percents), by weak duality: for a group G and any price λ per input unit,
 * Σ f_i(x_i) = λ·Σx_i + Σ (f_i(x_i) − λx_i) ≤ λ·A + Σ_G g_i(λ), g_i(λ) = max_x (f_i(x) − λx); so the best
 * group is bounded by λ·A + max_G Σ_G g_i(λ), minimised over λ (convex in λ). Between sampled percents each
 * f_i is bounded above by its concave envelope: the rate at zero, the next sample, and the previous chord's
 * line, samples raised by their rounding slack. Returns λ and the bound.
 */
export function convexBound(
  curves: readonly ReferenceCurve[],
  amountIn: bigint,
  maxBranches = 3,
): { bound: number; lambda: number } {
  const total = Number(amountIn);
  const xs = Array.from({ length: 101 }, (_, percent) => Number(shareOf(amountIn, percent)));
  // Shares too small to give any output are 0; past the first share that fills, one that does not is
  // beyond what the path can take (a price limit): the samples stop there.
  const samples = curves.map((curve) => {
    const first = curve.points.findIndex((point, k) => k > 0 && point !== undefined);
    const f: number[] = [];
    for (let k = 0; k <= 100; k++) {
      const point = curve.points[k];
      if (point !== undefined) f.push(Number(point));
      else if (first === -1 || k < first) f.push(0);
      else break;
    }
    return f;
  });
  // The envelope's breakpoints (x, U(x)) do not depend on λ: max_x (U(x) − λx) is attained at one of them.
  const breakpoints = curves.map((curve, i) => {
    const f = samples[i]!;
    const xsOut: number[] = [0];
    const us: number[] = [0];
    for (let k = 0; k < f.length && k < 100; k++) {
      // Upper envelope of the unrounded output on [x_k, x_k+1]: the rate at zero, the next sample (outputs
      // only grow), and the previous chord's line (concavity), the samples raised by the rounding slack.
      const slack = curve.roundingSlack;
      const lines: [slope: number, at: number, value: number][] = [[curve.spotRate, 0, 0]];
      if (k + 1 < f.length) lines.push([0, xs[k + 1]!, f[k + 1]! + slack]);
      if (xs[k + 1]! === xs[k]!) continue; // a tiny input: two percents floor to the same amount
      // The chord from the last earlier sample at a smaller amount.
      let j = k - 1;
      while (j >= 0 && xs[j]! === xs[k]!) j--;
      if (j >= 0 && f[j]! > 0)
        lines.push([(f[k]! + slack - f[j]!) / (xs[k]! - xs[j]!), xs[k]!, f[k]! + slack]);
      const envelope = (x: number) =>
        Math.min(...lines.map(([slope, at, value]) => value + slope * (x - at)));
      const points = [xs[k]!, xs[k + 1]!];
      for (let p = 0; p < lines.length; p++)
        for (let q = p + 1; q < lines.length; q++) {
          const [s1, a1, v1] = lines[p]!;
          const [s2, a2, v2] = lines[q]!;
          if (s1 === s2) continue;
          const x = (v2 - s2 * a2 - (v1 - s1 * a1)) / (s1 - s2);
          if (x > xs[k]! && x < xs[k + 1]!) points.push(x);
        }
      for (const x of points) {
        xsOut.push(x);
        us.push(envelope(x));
      }
    }
    return { xs: Float64Array.from(xsOut), us: Float64Array.from(us) };
  });
  const pools = curves.map((curve) => curve.pools);
  const disjoint = (a: number, b: number) => [...pools[a]!].every((pool) => !pools[b]!.has(pool));
  // The largest Σ g_i over a group of up to `maxBranches` pool-disjoint paths.
  const surplus = (lambda: number) => {
    const g = breakpoints
      .map(({ xs: at, us }, index) => {
        let best = 0;
        for (let p = 0; p < at.length; p++) best = Math.max(best, us[p]! - lambda * at[p]!);
        return { index, best };
      })
      .filter((entry) => entry.best > 0)
      .sort((a, b) => b.best - a.best);
    let top = g[0]?.best ?? 0;
    const v = (i: number) => g[i]?.best ?? 0;
    for (let i = 0; i < g.length && maxBranches >= 2; i++) {
      if (v(i) + v(i + 1) + (maxBranches >= 3 ? v(i + 2) : 0) <= top) break;
      for (let j = i + 1; j < g.length; j++) {
        if (v(i) + v(j) + (maxBranches >= 3 ? v(j + 1) : 0) <= top) break;
        if (!disjoint(g[i]!.index, g[j]!.index)) continue;
        top = Math.max(top, v(i) + v(j));
        for (let k = j + 1; k < g.length && maxBranches >= 3; k++) {
          if (v(i) + v(j) + v(k) <= top) break;
          if (disjoint(g[i]!.index, g[k]!.index) && disjoint(g[j]!.index, g[k]!.index))
            top = v(i) + v(j) + v(k);
        }
      }
    }
    return top;
  };
  const value = (lambda: number) => lambda * total + surplus(lambda);
  // Convex in λ: golden-section search between 0 and the best rate at zero (where the bound is rate·A).
  let lo = 0;
  let hi = Math.max(...curves.map((curve) => curve.spotRate));
  const ratio = (Math.sqrt(5) - 1) / 2;
  for (let round = 0; round < 200; round++) {
    const a = hi - ratio * (hi - lo);
    const b = lo + ratio * (hi - lo);
    if (value(a) <= value(b)) hi = b;
    else lo = a;
  }
  const lambda = (lo + hi) / 2;
  return { bound: value(lambda), lambda };
}

export type Allocation = { paths: Path[]; percents: number[]; out: bigint };

/**
 * The best route over every path alone and every allocation of whole percents over 2 or 3 pool-disjoint
 * paths, exactly re-quoted (each share floored, the last branch taking the remainder, as the search does).
 * A group is skipped only when the duality bound λ·A + Σ max_k (f_i(k%) − λ·x_k) over its members, valid
 * for every whole-percent allocation whatever λ, cannot beat the best found: provably safe pruning. The
 * sweep compares outputs as doubles (15 significant digits: ties below a billionth of a basis point are
 * broken arbitrarily) and re-quotes the winner exactly.
 */
export function exhaustiveReference(
  curves: readonly ReferenceCurve[],
  amountIn: bigint,
  lambda: number,
): Allocation | undefined {
  const xs = Array.from({ length: 101 }, (_, percent) => Number(shareOf(amountIn, percent)));
  const base = lambda * Number(amountIn);
  const sorted = curves
    .map((curve) => {
      const f = Float64Array.from(curve.points, (point) => (point === undefined ? -Infinity : Number(point)));
      let surplus = 0;
      f.forEach((value, k) => {
        surplus = Math.max(surplus, value - lambda * xs[k]!);
      });
      return { curve, f, surplus };
    })
    .sort((a, b) => b.surplus - a.surplus);
  let best: { paths: Path[]; percents: number[]; out: number } | undefined;
  for (const { curve, f } of sorted)
    if (f[100]! > (best?.out ?? -Infinity)) best = { paths: [curve.path], percents: [100], out: f[100]! };
  // A margin of a billionth keeps the doubles' rounding from pruning a real contender.
  const beaten = (bound: number) => best !== undefined && bound < best.out * (1 - 1e-9);
  const disjoint = (a: ReferenceCurve, b: ReferenceCurve) => [...a.pools].every((pool) => !b.pools.has(pool));
  const n = sorted.length;
  const s = (index: number) => sorted[index]?.surplus ?? 0;
  // pair[r]: the best of f_a(y) + f_b(r − y) over y = 1..r−1, and that y.
  const pair = new Float64Array(101);
  const pairAt = new Int8Array(101);
  // Surpluses are sorted, so once a group's best possible bound is beaten, every later one is too.
  for (let i = 0; i < n; i++) {
    if (beaten(base + s(i) + s(i + 1) + s(i + 2))) break;
    const a = sorted[i]!;
    for (let j = i + 1; j < n; j++) {
      if (beaten(base + s(i) + s(j) + s(j + 1))) break;
      const b = sorted[j]!;
      if (!disjoint(a.curve, b.curve)) continue;
      const [fa, fb] = [a.f, b.f];
      for (let r = 2; r <= 100; r++) {
        let top = -Infinity;
        let at = 0;
        for (let y = 1; y < r; y++) {
          const v = fa[y]! + fb[r - y]!;
          if (v > top) {
            top = v;
            at = y;
          }
        }
        pair[r] = top;
        pairAt[r] = at;
      }
      if (pair[100]! > (best?.out ?? -Infinity))
        best = {
          paths: [a.curve.path, b.curve.path],
          percents: [pairAt[100]!, 100 - pairAt[100]!],
          out: pair[100]!,
        };
      for (let k = j + 1; k < n; k++) {
        if (beaten(base + s(i) + s(j) + s(k))) break;
        const c = sorted[k]!;
        if (!disjoint(a.curve, c.curve) || !disjoint(b.curve, c.curve)) continue;
        const fc = c.f;
        for (let z = 1; z <= 98; z++) {
          const v = fc[z]! + pair[100 - z]!;
          if (v > (best?.out ?? -Infinity)) {
            const y = pairAt[100 - z]!;
            best = {
              paths: [a.curve.path, b.curve.path, c.curve.path],
              percents: [y, 100 - z - y, z],
              out: v,
            };
          }
        }
      }
    }
  }
  if (!best || best.out === -Infinity) return undefined;
  // Exactly as the search re-quotes: shares floored, one branch (each tried) taking the remainder.
  const { paths, percents } = best;
  let top: Allocation | undefined;
  for (let last = paths.length - 1; last >= 0; last--) {
    const order = [...paths.keys()].filter((i) => i !== last).concat(last);
    let assigned = 0n;
    let out: bigint | undefined = 0n;
    for (const [position, i] of order.entries()) {
      const branchIn = position === order.length - 1 ? amountIn - assigned : shareOf(amountIn, percents[i]!);
      assigned += branchIn;
      const point = quotePath(paths[i]!, branchIn);
      if (!point) {
        out = undefined;
        break;
      }
      out += point.amountOut;
    }
    if (out !== undefined && (!top || out > top.out)) top = { paths, percents, out };
  }
  return top;
}
