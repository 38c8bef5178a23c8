import type { Path } from "./paths.ts";

/**
 * Search-time gas heuristics (SPEC comparison rule 17): receipt-informed estimates used only to score
 * routes during the search; the final ranking uses each candidate's full-transaction `eth_estimateGas`.
 * The constants come from executor receipts on the devnet (`npm run bench -- gas` re-measures them; the
 * README's "Gas model" section records the calibration).
 */
export const GAS_MODEL = {
  /** Entry, input pull, fee settlement and the settlement record, paid once per swap. */
  base: 120_000,
  /** Per extra branch beyond the first. */
  branch: 12_000,
  v2Hop: 62_000,
  v3Hop: 95_000,
  v4Hop: 85_000,
  /** Each initialized tick a V3/V4 swap crosses. */
  tickCrossed: 22_000,
} as const;

export function hopGas(kind: "v2" | "v3" | "v4", ticksCrossed: number): number {
  const hop = kind === "v2" ? GAS_MODEL.v2Hop : kind === "v3" ? GAS_MODEL.v3Hop : GAS_MODEL.v4Hop;
  return hop + ticksCrossed * GAS_MODEL.tickCrossed;
}

/** Estimated gas of a whole route: base, branches and hops (ticks crossed at the amounts actually routed). */
export function routeGas(branches: readonly { path: Path; ticksCrossed: readonly number[] }[]): number {
  let gas = GAS_MODEL.base + Math.max(0, branches.length - 1) * GAS_MODEL.branch;
  for (const { path, ticksCrossed } of branches) {
    path.forEach((edge, index) => {
      gas += hopGas(edge.pool.kind, ticksCrossed[index] ?? 0);
    });
  }
  return gas;
}
