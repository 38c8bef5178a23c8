import type { SearchedRoute } from "../routing/split-search.ts";

/**
 * How far (in gas) below the best route's search score a route may score and still be simulated: about the
 * gas model's worst relative error on a large route (13.1% of ~350k; RMS 13.8k, `GAS_MODEL`). A route further
 * behind cannot win once its real gas is known, unless the model is off by more than it ever was measured to be.
 */
export const SIMULATION_MARGIN_GAS = 50_000;

/** The routes the search proposes that are always simulated, however far behind: a fallback for a revert. */
const ALWAYS_SIMULATED = 2;

/**
 * The search's routes worth simulating (docs/rules.md, comparison rules 5 and 17): the best two always (so a
 * revert of the best still leaves an alternative), the others only while their search score is within
 * SIMULATION_MARGIN_GAS of the best. Search scores are receipt-informed heuristics; only routes close enough
 * for the heuristic's error to decide between them need the gas measured when they are simulated to rank them. Without
 * a gas conversion, ranking is by output alone and every route is kept.
 *
 * `routes` are best first, as the search returns them.
 */
export function simulationShortlist(
  routes: readonly SearchedRoute[],
  gasToOut: ((gas: number) => bigint) | undefined,
): SearchedRoute[] {
  const best = routes[0];
  if (!best || !gasToOut) return [...routes];
  const floor = best.score - gasToOut(SIMULATION_MARGIN_GAS);
  return routes.filter((route, i) => i < ALWAYS_SIMULATED || route.score >= floor);
}
