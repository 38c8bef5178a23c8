import type { SwapMathVariant } from "../math/swap-math.ts";
import type { ConcentratedPoolState, MissingState, SwapCursor } from "./pool-state.ts";
import { continueExactIn, type ExactInResult, quoterPriceLimit, swapExactIn } from "./swap-exact-in.ts";
import { type StepReach, stepReach, swapStep } from "./swap-step.ts";

/** A point the swap passes for every large enough input: the end of a step that reached its target. */
type Boundary = { cursor: SwapCursor; consumed: bigint; amountOut: bigint; ticksCrossed: number };

/**
 * Quotes many exact-input amounts on one pool and direction, reusing the stepped path.
 *
 * A step reaches its target exactly when the input left covers `amountIn + fee` to that target (the fee is
 * `ceil(amountIn * fee / (1e6 - fee))` and the input less fee is floored, so the two conditions coincide),
 * and a step that reaches its target leaves the same pool state whatever the input was. So every input at
 * least as large as the cumulative input `consumed` of a boundary passes through that boundary in exactly
 * the pool's state, and quoting an amount is a binary search for the last boundary it covers plus the pool
 * loop from there (one partial step). The path is extended lazily, only as far as the largest amount asked.
 * Results are wei-identical to `swapExactIn`, which the tests check.
 */
export class ExactInPath {
  private readonly boundaries: Boundary[];
  /** The amount-independent part of the step leaving each boundary, computed once (`stepReach`). */
  private readonly reaches: (StepReach | { missing: MissingState } | undefined)[] = [];
  /** Why the path stops growing: the price limit, missing state, or nothing yet (`open`). */
  private end: { kind: "open" } | { kind: "limit" } | { kind: "missing"; missing: MissingState } = {
    kind: "open",
  };
  private readonly limit: bigint;
  /** Every amount up to this one is answered by the boundaries found so far plus one partial step. */
  private coveredUpTo = 0n;

  constructor(
    private readonly pool: ConcentratedPoolState,
    private readonly variant: SwapMathVariant,
    private readonly zeroForOne: boolean,
    private readonly feePips: bigint,
  ) {
    this.limit = quoterPriceLimit(zeroForOne);
    const cursor = { sqrtPriceX96: pool.sqrtPriceX96, tick: pool.tick, liquidity: pool.liquidity };
    this.boundaries = [{ cursor, consumed: 0n, amountOut: 0n, ticksCrossed: 0 }];
    if (zeroForOne ? this.limit >= pool.sqrtPriceX96 : this.limit <= pool.sqrtPriceX96)
      this.end = { kind: "limit" };
  }

  /** The same result as `swapExactIn(pool, variant, zeroForOne, feePips, amountIn)`. */
  quote(amountIn: bigint): ExactInResult {
    if (this.end.kind === "limit" && this.boundaries.length === 1)
      return swapExactIn(this.pool, this.variant, this.zeroForOne, this.feePips, amountIn);
    const partial = this.extendTo(amountIn);
    if (partial) return partial;
    const index = this.lastCovered(amountIn);
    const from = this.boundaries[index]!;
    const reach = amountIn === from.consumed ? undefined : this.reachAt(index);
    return continueExactIn(
      this.pool,
      this.variant,
      this.zeroForOne,
      this.feePips,
      this.limit,
      from,
      amountIn - from.consumed,
      reach && !("missing" in reach) ? reach : undefined,
    );
  }

  /**
   * Steps on from the last boundary until a step would not reach its target with `amountIn`. That last,
   * partial step is `amountIn`'s own final step, so its result is returned rather than computed twice.
   */
  private extendTo(amountIn: bigint): ExactInResult | undefined {
    if (amountIn <= this.coveredUpTo) return undefined;
    while (this.end.kind === "open") {
      const last = this.boundaries[this.boundaries.length - 1]!;
      if (last.consumed >= amountIn) return undefined;
      const reach = this.reachAt(this.boundaries.length - 1);
      if ("missing" in reach) {
        this.end = { kind: "missing", missing: reach.missing };
        return undefined;
      }
      const step = swapStep(
        this.pool,
        this.variant,
        last.cursor,
        this.zeroForOne,
        amountIn - last.consumed,
        this.feePips,
        this.limit,
        reach,
      );
      if (step.kind === "missing") {
        this.end = { kind: "missing", missing: step.missing };
        return undefined;
      }
      if (!step.reachedTarget) {
        // Less input reaches no further either: every amount up to this one ends in this segment.
        this.coveredUpTo = amountIn;
        if (step.consumed !== amountIn - last.consumed) return undefined;
        return {
          status: "filled",
          amountIn,
          amountOut: last.amountOut + step.amountOut,
          after: step.cursor,
          ticksCrossed: last.ticksCrossed + (step.crossedInitialized ? 1 : 0),
        };
      }
      this.boundaries.push({
        cursor: step.cursor,
        consumed: last.consumed + step.consumed,
        amountOut: last.amountOut + step.amountOut,
        ticksCrossed: last.ticksCrossed + (step.crossedInitialized ? 1 : 0),
      });
      if (step.cursor.sqrtPriceX96 === this.limit) this.end = { kind: "limit" };
    }
    return undefined;
  }

  private reachAt(index: number): StepReach | { missing: MissingState } {
    let reach = this.reaches[index];
    if (!reach) {
      reach = stepReach(this.pool, this.boundaries[index]!.cursor, this.zeroForOne, this.limit);
      this.reaches[index] = reach;
    }
    return reach;
  }

  /**
   * Where the pool's loop for `amountIn` is when the input left is too small to reach the next target: the
   * first boundary consuming exactly `amountIn` (the loop stops there, before any zero-input crossing that
   * follows), else the last one consuming less.
   */
  private lastCovered(amountIn: bigint): number {
    let [low, high] = [0, this.boundaries.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.boundaries[middle]!.consumed < amountIn) low = middle + 1;
      else high = middle;
    }
    return this.boundaries[low]?.consumed === amountIn ? low : low - 1;
  }
}
