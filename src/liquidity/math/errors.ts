/**
 * Why a pool's exact math refused an input: the same conditions under which the Solidity libraries revert.
 * A closed list, so callers branch on `code`, never on message text.
 */
export type SwapMathErrorCode =
  /** A result does not fit its Solidity type (FullMath, SafeCast, checked arithmetic). */
  | "overflow"
  /** Division by zero (FullMath with a zero denominator). */
  | "divisionByZero"
  /** A tick outside [MIN_TICK, MAX_TICK] (TickMath `InvalidTick`, V3 "T"). */
  | "invalidTick"
  /** A sqrt price outside [MIN_SQRT_PRICE, MAX_SQRT_PRICE) or zero (TickMath / SqrtPriceMath `InvalidPrice`). */
  | "invalidPrice"
  /** Zero price or liquidity where a price move is computed (SqrtPriceMath `InvalidPriceOrLiquidity`). */
  | "invalidPriceOrLiquidity"
  /** Removing more of a token than the virtual reserves hold (SqrtPriceMath `NotEnoughLiquidity`/`PriceOverflow`). */
  | "notEnoughLiquidity"
  /** Liquidity would go below zero or past uint128 (LiquidityMath "LS"/"LA", SafeCast). */
  | "liquidityOverflow"
  /** A swap amount the pool or quoter refuses: zero, or past its integer type (V3 int256, V4 int128). */
  | "invalidAmount";

/** Thrown where the mirrored Solidity would revert; pure math never fails for any other reason. */
export class SwapMathError extends Error {
  override name = "SwapMathError";
  constructor(
    readonly code: SwapMathErrorCode,
    message: string,
  ) {
    super(message);
  }
}
