import { GAS_MODEL, hopGas } from "./gas-model.ts";
import { SEARCH_LIMITS } from "./limits.ts";
import type { PathPoint } from "./path-curve.ts";
import type { Path } from "./paths.ts";

/** Prices of the input the bound is taken at, beyond the best path's average rate: the best spot rates. */
const PRICES_TRIED = 16;

/**
 * The most any split of two or more branches could score, as a float: an upper bound by the allocation's
 * convex dual, which the split search compares with the best path alone (docs/rules.md, comparison rule 6:
 * pruned only where provably safe).
 *
 * Each path's output U(x) is non-decreasing and at most its spot rate s times its input (the product of its
 * hops' `spotRate`: the price only moves against a trade, and pools round in their own favour), so at most
 * min(s·x, c) with c = U(whole input), or s times the whole input when the path cannot fill it. Each branch
 * also pays at least its path's gas crossing no tick (G), and the route the base and one more branch per
 * branch beyond the first. At any price λ of the input, a split's score over branches i is then at most
 * λ·A + Σ_i (max over x of min(s_i·x, c_i) − λ·x) − G_i − route gas, and that maximum is c·(1 − λ/s) when s > λ
 * (else 0). The best two terms over all paths, plus a third when it pays its branch, give the bound at λ;
 * the least over a few prices is returned. The relative margin covers the floats' rounding (about 1e-15).
 */
export function splitCeiling(
  curves: readonly { path: Path; pointAt: (percent: number) => PathPoint }[],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): number {
  const whole = Number(amountIn);
  const rows: { rate: number; cap: number; gas: number }[] = [];
  for (const { path, pointAt } of curves) {
    let rate = 1;
    let gas = 0;
    path.forEach((edge, i) => {
      rate *= edge.spotRate;
      gas += hopGas(edge.pool.kind, 0, path[i - 1]?.pool.kind);
    });
    const point = pointAt(100);
    const cap = point ? Math.min(Number(point.amountOut), rate * whole) : rate * whole;
    rows.push({ rate, cap, gas: Number(gasToOut(gas)) });
  }
  if (rows.length < 2) return -Infinity;
  rows.sort((a, b) => b.rate - a.rate);
  const routeGas = Number(gasToOut(GAS_MODEL.base + GAS_MODEL.branch));
  const branchGas = Number(gasToOut(GAS_MODEL.branch));
  const bestAverage = Math.max(...rows.map((row) => row.cap)) / whole;
  let ceiling = Infinity;
  for (const price of [bestAverage, ...rows.slice(0, PRICES_TRIED).map((row) => row.rate)]) {
    // Each path's most a branch over it can add at this price (output beyond λ·x, less its gas), the best
    // first: one per branch a split may have.
    const top: { output: number; gas: number }[] = [];
    for (const { rate, cap, gas } of rows) {
      const output = rate > price ? cap * (1 - price / rate) : 0;
      const term = { output, gas };
      const at = top.findIndex((kept) => kept.output - kept.gas < output - gas);
      if (at >= 0) top.splice(at, 0, term);
      else top.push(term);
      if (top.length > SEARCH_LIMITS.maxSplitBranches) top.pop();
    }
    let output = price * whole;
    let gas = routeGas;
    top.forEach((term, i) => {
      // Two branches at least; each further one only when it pays for its own branch.
      const extra = i >= 2 ? branchGas : 0;
      if (i >= 2 && term.output - term.gas - extra <= 0) return;
      output += term.output;
      gas += term.gas + extra;
    });
    ceiling = Math.min(ceiling, output * (1 + 1e-9) - gas * (1 - 1e-9));
  }
  return ceiling;
}
