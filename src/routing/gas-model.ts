import type { Path } from "./paths.ts";

type PoolKind = "v2" | "v3" | "v4";

/**
 * Search-time gas heuristics (docs/rules.md, comparison rule 17): receipt-informed estimates used only to
 * score routes during the search; the final ranking uses each candidate's full-transaction gas, measured when it is simulated.
 *
 * Calibrated 2026-11-30 by least squares on 40 executor swap receipts on the devnet (seed 4663, block 245)
 * with `npm run bench -- gas`, after the executor began to charge by its own copy of the registry's fee
 * policy and every contract was built for 1,000,000 optimizer runs (base 77,000 -> 70,700; the hop terms
 * moved by 1k or less): RMS error 13.6k gas, mean 4.9%, worst scenario 14.6% (the previous constants on
 * this executor: 15.6k, worst 18.7%; the guesses before the first calibration: RMS 44.5k, worst 57%).
 * docs/benchmarks.md ("gas") says what is measured and how to re-run it. Receipts are net of refunds, which
 * are capped at a fifth of the gas, so real costs are only roughly additive: these are averages over the
 * scenarios, not per-opcode truths.
 */
export const GAS_MODEL = {
  /** Intrinsic and calldata gas, entry checks, the copied fee policy's words, fee credits and the settlement record. */
  base: 70_700,
  /** Each branch beyond the first. */
  branch: 10_300,
  v2Hop: 56_500,
  v3Hop: 66_600,
  /** Each V4 pool swap. */
  v4Hop: 19_500,
  /** Once per run of consecutive V4 hops: the PoolManager unlock, settling the input and taking the output. */
  v4Run: 65_700,
  /** Each initialized tick a V3 swap crosses (V3 ticks also carry oracle accumulators: more to write than V4). */
  v3TickCrossed: 58_500,
  /** Each initialized tick a V4 swap crosses. */
  v4TickCrossed: 25_600,
} as const;

export type GasTerm = keyof typeof GAS_MODEL;

/**
 * How many times a route incurs each constant of `GAS_MODEL`: the model is `Σ GAS_MODEL[term] × count`.
 * The calibration fits the constants against these counts, so the model's shape is defined here only.
 */
export function gasTerms(
  branches: readonly { path: Path; ticksCrossed: readonly number[] }[],
): Record<GasTerm, number> {
  const terms: Record<GasTerm, number> = {
    base: 1,
    branch: Math.max(0, branches.length - 1),
    v2Hop: 0,
    v3Hop: 0,
    v4Hop: 0,
    v4Run: 0,
    v3TickCrossed: 0,
    v4TickCrossed: 0,
  };
  for (const { path, ticksCrossed } of branches) {
    path.forEach((edge, index) => {
      const kind = edge.pool.kind;
      terms[`${kind}Hop`] += 1;
      if (kind === "v4" && path[index - 1]?.pool.kind !== "v4") terms.v4Run += 1;
      if (kind !== "v2") terms[`${kind}TickCrossed`] += ticksCrossed[index] ?? 0;
    });
  }
  return terms;
}

/**
 * The gas one hop adds to its branch: its pool kind, the ticks it crosses, and for V4 whether it opens a
 * new run (a V4 hop right after another V4 hop shares that hop's unlock).
 */
export function hopGas(kind: PoolKind, ticksCrossed: number, previous?: PoolKind): number {
  if (kind === "v2") return GAS_MODEL.v2Hop;
  if (kind === "v3") return GAS_MODEL.v3Hop + ticksCrossed * GAS_MODEL.v3TickCrossed;
  return GAS_MODEL.v4Hop + (previous === "v4" ? 0 : GAS_MODEL.v4Run) + ticksCrossed * GAS_MODEL.v4TickCrossed;
}

/** Estimated gas of a whole route: base, branches and hops (ticks crossed at the amounts actually routed). */
export function routeGas(branches: readonly { path: Path; ticksCrossed: readonly number[] }[]): number {
  const terms = gasTerms(branches);
  return (Object.keys(GAS_MODEL) as GasTerm[]).reduce((gas, term) => gas + GAS_MODEL[term] * terms[term], 0);
}
