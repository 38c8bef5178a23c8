import { describe, expect, it } from "vitest";
import type { SearchedRoute } from "../routing/split-search.ts";
import { SIMULATION_MARGIN_GAS, simulationShortlist } from "./simulation-shortlist.ts";

/** A route of the given search score (its other fields do not matter to the shortlist). */
const route = (score: bigint): SearchedRoute => ({ branches: [], amountOut: score, gas: 0, score });
/** One output unit per gas. */
const perGas = (gas: number) => BigInt(gas);

describe("simulation shortlist", () => {
  it("keeps every route within the margin of the best, and drops those further behind", () => {
    const best = 1_000_000n;
    const routes = [
      best,
      best - 10n,
      best - 20n,
      best - BigInt(SIMULATION_MARGIN_GAS),
      best - 1n - BigInt(SIMULATION_MARGIN_GAS),
    ];
    expect(simulationShortlist(routes.map(route), perGas).map((r) => r.score)).toEqual(routes.slice(0, 4));
  });

  it("always keeps the best two, however far behind the second is, so a revert leaves an alternative", () => {
    const routes = [10_000_000n, 10n, 5n].map(route);
    expect(simulationShortlist(routes, perGas).map((r) => r.score)).toEqual([10_000_000n, 10n]);
  });

  it("keeps everything without a gas conversion (ranking by output alone)", () => {
    const routes = [10_000_000n, 10n, 5n].map(route);
    expect(simulationShortlist(routes, undefined)).toEqual(routes);
    expect(simulationShortlist([], perGas)).toEqual([]);
  });
});
