import { GAS_MODEL } from "./gas-model.ts";
import { quotePath, shareOf } from "./path-curve.ts";
import type { Path } from "./paths.ts";

export type RouteBranch = { path: Path; amountIn: bigint; amountOut: bigint; ticksCrossed: number[] };

/** A route the search proposes: its branches with exact amounts, its output, gas estimate and score. */
export type SearchedRoute = {
  branches: RouteBranch[];
  amountOut: bigint;
  /** Search-time gas estimate (receipt-informed heuristic, docs/rules.md, comparison rule 17). */
  gas: number;
  /** amountOut minus the gas cost in output units (or amountOut alone without a conversion). */
  score: bigint;
};

/** The chosen allocations (each branch's curve and percent) re-quoted at exact amounts, best first. */
export function exactRoutes(
  chosen: readonly { parts: readonly (readonly [{ path: Path }, number])[] }[],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): SearchedRoute[] {
  return chosen
    .map(({ parts }) =>
      exactRoute(
        parts.map(([curve, percent]) => [curve.path, percent]),
        amountIn,
        gasToOut,
      ),
    )
    .filter((route): route is SearchedRoute => route !== undefined)
    .sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : 0));
}

/**
 * Re-quotes the chosen allocation at exact amounts: each share floored, one branch taking the remainder
 * (the last, as the executor runs it). When the last cannot fill its few extra wei (a pool at its limit),
 * each other branch is tried as the one taking them.
 */
function exactRoute(
  parts: [Path, number][],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): SearchedRoute | undefined {
  for (let last = parts.length - 1; last >= 0; last--) {
    const ordered = [...parts.slice(0, last), ...parts.slice(last + 1), parts[last]!];
    const route = quoteAllocation(ordered, amountIn, gasToOut);
    if (route) return route;
  }
  return undefined;
}

function quoteAllocation(
  parts: [Path, number][],
  amountIn: bigint,
  gasToOut: (gas: number) => bigint,
): SearchedRoute | undefined {
  const branches: RouteBranch[] = [];
  let assigned = 0n;
  let gas = GAS_MODEL.base + (parts.length - 1) * GAS_MODEL.branch;
  for (const [index, [path, percent]] of parts.entries()) {
    const branchIn = index === parts.length - 1 ? amountIn - assigned : shareOf(amountIn, percent);
    assigned += branchIn;
    const point = quotePath(path, branchIn);
    if (!point) return undefined;
    gas += point.gas;
    branches.push({ path, amountIn: branchIn, amountOut: point.amountOut, ticksCrossed: point.ticksCrossed });
  }
  const amountOut = branches.reduce((sum, branch) => sum + branch.amountOut, 0n);
  return { branches, amountOut, gas, score: amountOut - gasToOut(gas) };
}
