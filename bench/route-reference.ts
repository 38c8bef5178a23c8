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
};

export function referenceCurve(
  path: Path,
  amountIn: bigint,
  snapshotOf: (edge: Edge) => PoolSnapshot,
): ReferenceCurve {
  const points: (bigint | undefined)[] = [0n];
  for (let percent = 1; percent <= 100; percent++) {
    // A path that cannot fill a share cannot fill a larger one.
    if (points[percent - 1] === undefined) points.push(undefined);
    else points.push(quotePath(path, shareOf(amountIn, percent))?.amountOut);
  }
  // Float rates, widened by a millionth so rounding can only loosen the bound.
  const spotRate = path.reduce((rate, edge) => rate * edgeSpotRate(edge, snapshotOf(edge)), 1) * (1 + 1e-6);
  return { path, pools: new Set(poolsOf(path)), points, spotRate };
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
 * An upper bound on the output of any split of the input over the paths, in any proportions (not only whole
 * percents) and over any number of branches, by weak duality: for any price λ per input unit,
 * Σ f_i(x_i) = λ·Σx_i + Σ (f_i(x_i) − λx_i) ≤ λ·A + Σ max_x (f_i(x) − λx). Between sampled percents each
 * f_i is bounded above by its concave envelope: the previous chord's line, capped by the next sample, and
 * by spotRate·x. Paths are treated as independent (pool-disjoint groups are; shared pools only do worse),
 * so the bound holds for every route the search could build. Minimised over λ; returns λ and the bound.
 */
export function convexBound(
  curves: readonly ReferenceCurve[],
  amountIn: bigint,
): { bound: number; lambda: number } {
  const total = Number(amountIn);
  const xs = Array.from({ length: 101 }, (_, percent) => Number(shareOf(amountIn, percent)));
  const samples = curves.map((curve) =>
    curve.points.map((point) => (point === undefined ? undefined : Number(point))),
  );
  const surplus = (lambda: number) => {
    let sum = 0;
    curves.forEach((curve, i) => {
      const f = samples[i]!;
      let best = 0;
      for (let k = 0; k < 100; k++) {
        const fk = f[k];
        if (fk === undefined) break;
        best = Math.max(best, fk - lambda * xs[k]!);
        const next = f[k + 1];
        // The envelope's slope on [x_k, x_k+1]: the rate at zero first, then the previous chord's.
        const slope = k === 0 ? curve.spotRate : (fk - f[k - 1]!) / (xs[k]! - xs[k - 1]!);
        if (slope <= lambda) continue; // the envelope minus λx falls from x_k on
        if (next === undefined) {
          // The path stops filling somewhere before x_k+1: the line up to there, at most.
          best = Math.max(best, fk + slope * (xs[k + 1]! - xs[k]!) - lambda * xs[k + 1]!);
          break;
        }
        // The line meets the next sample at x*; past it the envelope is flat at f_k+1.
        const kink = Math.min(xs[k + 1]!, xs[k]! + (next - fk) / slope);
        best = Math.max(best, fk + slope * (kink - xs[k]!) - lambda * kink);
      }
      sum += best;
    });
    return sum;
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
  let assigned = 0n;
  let out = 0n;
  for (const [i, path] of best.paths.entries()) {
    const branchIn = i === best.paths.length - 1 ? amountIn - assigned : shareOf(amountIn, best.percents[i]!);
    assigned += branchIn;
    const point = quotePath(path, branchIn);
    if (!point) return undefined;
    out += point.amountOut;
  }
  return { paths: best.paths, percents: best.percents, out };
}
