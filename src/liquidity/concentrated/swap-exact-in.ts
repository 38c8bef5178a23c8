import type { SwapMathVariant } from "../math/swap-math.ts";
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "../math/tick-math.ts";
import type { ConcentratedPoolState, MissingState, SwapCursor } from "./pool-state.ts";
import { type StepReach, swapStep } from "./swap-step.ts";

/**
 * The outcome of an exact-input swap on a pool snapshot.
 *
 * - `filled`: the whole input was swapped.
 * - `priceLimit`: the price reached the limit first; `amountIn` is what was consumed (less than asked).
 *   QuoterV2 quotes such a swap (its callback reports what the pool took); V4Quoter reverts with
 *   `NotEnoughLiquidity`, and a router would take only `amountIn`.
 * - `incomplete`: the swap needs state the snapshot did not load. Never a number: load `missing` at the
 *   same block and quote again.
 */
export type ExactInResult =
  | {
      status: "filled" | "priceLimit";
      amountIn: bigint;
      amountOut: bigint;
      /** The pool's price, tick and liquidity after the swap (slot0 as the pool would store it). */
      after: SwapCursor;
      /** Initialized ticks crossed (liquidityNet applied). */
      ticksCrossed: number;
    }
  | { status: "incomplete"; missing: MissingState };

/**
 * Runs the pool's swap loop from `cursor` with `amountRemaining` input left, starting from the totals
 * already accumulated (`consumed`, `amountOut`, `ticksCrossed`): the shared tail of a single quote and of a
 * quote resumed from a precomputed boundary (`ExactInPath`).
 */
export function continueExactIn(
  pool: ConcentratedPoolState,
  variant: SwapMathVariant,
  zeroForOne: boolean,
  feePips: bigint,
  sqrtPriceLimitX96: bigint,
  start: { cursor: SwapCursor; consumed: bigint; amountOut: bigint; ticksCrossed: number },
  amountRemaining: bigint,
  /** The reach of the first step from `start.cursor`, when the caller has it cached. */
  firstReach?: StepReach,
): ExactInResult {
  let { cursor, consumed, amountOut, ticksCrossed } = start;
  let reach = firstReach;
  while (amountRemaining !== 0n && cursor.sqrtPriceX96 !== sqrtPriceLimitX96) {
    const step = swapStep(
      pool,
      variant,
      cursor,
      zeroForOne,
      amountRemaining,
      feePips,
      sqrtPriceLimitX96,
      reach,
    );
    reach = undefined;
    if (step.kind === "missing") return { status: "incomplete", missing: step.missing };
    amountRemaining -= step.consumed;
    consumed += step.consumed;
    amountOut += step.amountOut;
    if (step.crossedInitialized) ticksCrossed += 1;
    cursor = step.cursor;
  }
  return {
    status: amountRemaining === 0n ? "filled" : "priceLimit",
    amountIn: consumed,
    amountOut,
    after: cursor,
    ticksCrossed,
  };
}

/** The price limit both official quoters pass: the swap may move the price anywhere short of the bounds. */
export function quoterPriceLimit(zeroForOne: boolean): bigint {
  return zeroForOne ? MIN_SQRT_PRICE + 1n : MAX_SQRT_PRICE - 1n;
}

/**
 * Swaps `amountIn` (positive) into the pool as QuoterV2 / V4Quoter do: an exact input with the quoters'
 * price limit. A pool already at the limit swaps nothing (the pools revert there; reported as a
 * `priceLimit` result with zero amounts).
 */
export function swapExactIn(
  pool: ConcentratedPoolState,
  variant: SwapMathVariant,
  zeroForOne: boolean,
  feePips: bigint,
  amountIn: bigint,
): ExactInResult {
  const limit = quoterPriceLimit(zeroForOne);
  const cursor: SwapCursor = { sqrtPriceX96: pool.sqrtPriceX96, tick: pool.tick, liquidity: pool.liquidity };
  const start = { cursor, consumed: 0n, amountOut: 0n, ticksCrossed: 0 };
  if (zeroForOne ? limit >= pool.sqrtPriceX96 : limit <= pool.sqrtPriceX96)
    return { status: "priceLimit", amountIn: 0n, amountOut: 0n, after: cursor, ticksCrossed: 0 };
  return continueExactIn(pool, variant, zeroForOne, feePips, limit, start, amountIn);
}
