import type { SwapMathVariant } from "../math/swap-math.ts";
import type { ConcentratedPoolState, MissingState } from "./pool-state.ts";
import { quoterPriceLimit } from "./swap-exact-in.ts";
import { swapStep } from "./swap-step.ts";

export type StepEdges = {
  /** Cumulative input (fee included) at which the swap reaches each successive step target. */
  edges: bigint[];
  /** Where the walk stopped: the price limit (`drained` is then the input that empties the pool's side) or
   * state the snapshot lacks. */
  end: { kind: "limit"; drained: bigint } | { kind: "missing"; missing: MissingState } | { kind: "maxSteps" };
};

/**
 * The inputs at which an exact-input swap crosses each tick boundary and word edge, walking the pool's loop
 * as far as the snapshot goes: the amounts where a quote's behaviour changes, which tests and the
 * benchmark aim at, and the most a loaded window can price (the last edge before `missing`).
 */
export function stepEdges(
  pool: ConcentratedPoolState,
  variant: SwapMathVariant,
  zeroForOne: boolean,
  feePips: bigint,
  maxSteps = Number.POSITIVE_INFINITY,
): StepEdges {
  const limit = quoterPriceLimit(zeroForOne);
  let cursor = { sqrtPriceX96: pool.sqrtPriceX96, tick: pool.tick, liquidity: pool.liquidity };
  let consumed = 0n;
  const edges: bigint[] = [];
  while (edges.length < maxSteps) {
    if (zeroForOne ? cursor.sqrtPriceX96 <= limit : cursor.sqrtPriceX96 >= limit)
      return { edges, end: { kind: "limit", drained: consumed } };
    const step = swapStep(pool, variant, cursor, zeroForOne, 1n << 250n, feePips, limit);
    if (step.kind === "missing") return { edges, end: { kind: "missing", missing: step.missing } };
    consumed += step.consumed;
    cursor = step.cursor;
    edges.push(consumed);
  }
  return { edges, end: { kind: "maxSteps" } };
}
