import { addDelta } from "../math/liquidity-math.ts";
import {
  amountInToTarget,
  computeSwapStepExactIn,
  getSqrtPriceTarget,
  type SwapMathVariant,
} from "../math/swap-math.ts";
import { bitmapWordOf, nextInitializedTickWithinOneWord, usableWordRange } from "../math/tick-bitmap.ts";
import { getSqrtPriceAtTick, getTickAtSqrtPrice, MAX_TICK, MIN_TICK } from "../math/tick-math.ts";
import type { ConcentratedPoolState, MissingState, SwapCursor } from "./pool-state.ts";

/**
 * A step's reach, the part of it that does not depend on the input left: the next initialized tick within
 * one bitmap word (clamped to the tick range), its price, the step's target, and the input that reaches it.
 */
export type StepReach = {
  tickNext: number;
  initialized: boolean;
  sqrtPriceNextX96: bigint;
  target: bigint;
  inputToTarget: bigint;
};

/** The reach of the step from `cursor`, or the bitmap word it needs and the snapshot lacks. */
export function stepReach(
  pool: ConcentratedPoolState,
  cursor: SwapCursor,
  zeroForOne: boolean,
  sqrtPriceLimitX96: bigint,
): StepReach | { missing: MissingState } {
  const wordPos = bitmapWordOf(cursor.tick, pool.tickSpacing, zeroForOne);
  if (wordPos < pool.bitmap.from || wordPos > pool.bitmap.to) {
    const usable = usableWordRange(pool.tickSpacing);
    if (wordPos >= usable.min && wordPos <= usable.max) return { missing: { kind: "bitmapWord", wordPos } };
  }
  const word = pool.bitmap.words.get(wordPos) ?? 0n;
  const found = nextInitializedTickWithinOneWord(word, cursor.tick, pool.tickSpacing, zeroForOne);
  const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
  const sqrtPriceNextX96 = getSqrtPriceAtTick(tickNext);
  const target = getSqrtPriceTarget(zeroForOne, sqrtPriceNextX96, sqrtPriceLimitX96);
  return {
    tickNext,
    initialized: found.initialized,
    sqrtPriceNextX96,
    target,
    inputToTarget: amountInToTarget(cursor.sqrtPriceX96, target, cursor.liquidity),
  };
}

/** How one iteration of the pool's swap loop moves an exact-input swap. */
export type StepOutcome =
  | {
      kind: "step";
      /** Input taken by this step, fee included. */
      consumed: bigint;
      amountOut: bigint;
      /** The step ended on its target (a tick boundary or the price limit) rather than running out. */
      reachedTarget: boolean;
      /** An initialized tick was crossed (its liquidityNet applied). */
      crossedInitialized: boolean;
      cursor: SwapCursor;
    }
  | { kind: "missing"; missing: MissingState };

/**
 * One iteration of the `while` loop of UniswapV3Pool.swap / v4-core Pool.swap for an exact input: find the
 * next initialized tick within one bitmap word, step towards it (or the price limit), cross it if reached,
 * and update the tick exactly as the pool does. Returns the missing piece instead when the word or the
 * crossed tick was not loaded: a guess there could only be optimistic.
 */
export function swapStep(
  pool: ConcentratedPoolState,
  variant: SwapMathVariant,
  cursor: SwapCursor,
  zeroForOne: boolean,
  amountRemaining: bigint,
  feePips: bigint,
  sqrtPriceLimitX96: bigint,
  /** The step's reach when the caller already has it (`stepReach` from the same cursor). */
  reach?: StepReach,
): StepOutcome {
  const ahead = reach ?? stepReach(pool, cursor, zeroForOne, sqrtPriceLimitX96);
  if ("missing" in ahead) return { kind: "missing", missing: ahead.missing };
  const { tickNext, sqrtPriceNextX96, target } = ahead;
  const step = computeSwapStepExactIn(
    variant,
    cursor.sqrtPriceX96,
    target,
    cursor.liquidity,
    amountRemaining,
    feePips,
    ahead.inputToTarget,
  );

  let { tick, liquidity } = cursor;
  let crossedInitialized = false;
  if (step.sqrtPriceNextX96 === sqrtPriceNextX96) {
    if (ahead.initialized) {
      const net = pool.liquidityNet.get(tickNext);
      if (net === undefined) return { kind: "missing", missing: { kind: "tick", tick: tickNext } };
      liquidity = addDelta(liquidity, zeroForOne ? -net : net);
      crossedInitialized = true;
    }
    tick = zeroForOne ? tickNext - 1 : tickNext;
  } else if (step.sqrtPriceNextX96 !== cursor.sqrtPriceX96) {
    tick = getTickAtSqrtPrice(step.sqrtPriceNextX96);
  }
  return {
    kind: "step",
    consumed: step.amountIn + step.feeAmount,
    amountOut: step.amountOut,
    reachedTarget: step.sqrtPriceNextX96 === target,
    crossedInitialized,
    cursor: { sqrtPriceX96: step.sqrtPriceNextX96, tick, liquidity },
  };
}
