import type { Ratio } from "../liquidity/math/ratio.ts";
import type { Path } from "./paths.ts";

/** One branch of a route: the path, what it was given and what the exact math says it returns. */
export type PricedBranch = { path: Path; amountIn: bigint; amountOut: bigint };

/**
 * A route's price impact in bps (docs/rules.md, price impact rules 1-2): how far its exact output falls
 * short of what the same route would return at its marginal rate, where each branch's marginal rate is
 * the product of its hops' exact rates at the quote block (marginal-rate.ts), from the same pool state
 * the search used. With `ideal` = Σ branch input × branch rate, the impact is (ideal − output) / ideal,
 * rounded to the nearest bps (half up). Pool fees are in the rate, so a dust trade's impact is 0; the
 * service and builder fees are not pool prices and are not in it. Undefined for a route with no input
 * or a zero rate (an empty pool), which has no price to measure against.
 */
export function priceImpactBps(branches: readonly PricedBranch[]): number | undefined {
  // ideal = Σ amountIn_b · num_b / den_b as one fraction over the product of the denominators.
  let idealNum = 0n;
  let idealDen = 1n;
  let output = 0n;
  for (const branch of branches) {
    const rate = pathRate(branch.path);
    if (rate.num === 0n || rate.den === 0n) return undefined;
    idealNum = idealNum * rate.den + branch.amountIn * rate.num * idealDen;
    idealDen *= rate.den;
    output += branch.amountOut;
  }
  if (idealNum === 0n) return undefined;
  // (ideal − output) / ideal = (idealNum − output · idealDen) / idealNum, in bps, rounded half up.
  const shortfall = (idealNum - output * idealDen) * 10_000n;
  return Number(roundHalfUp(shortfall, idealNum));
}

/** A path's marginal rate: the product of its hops' rates (the output of one hop is the next one's input). */
export function pathRate(path: Path): Ratio {
  return path.reduce<Ratio>(
    (rate, edge) => ({ num: rate.num * edge.marginalRate.num, den: rate.den * edge.marginalRate.den }),
    { num: 1n, den: 1n },
  );
}

/** `num / den` rounded to the nearest integer, halves away from zero (den > 0). */
function roundHalfUp(num: bigint, den: bigint): bigint {
  return num >= 0n ? (2n * num + den) / (2n * den) : -((-2n * num + den) / (2n * den));
}
