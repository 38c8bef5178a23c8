import { mulDiv, mulDivRoundingUp } from "./full-math.ts";
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput } from "./sqrt-price-math.ts";

/** Fees are in hundredths of a bip: 1e6 is 100% (SwapMath.MAX_SWAP_FEE). */
export const MAX_SWAP_FEE = 1_000_000n;

/** Which pool's SwapMath to mirror: they split a partial step's input between amountIn and fee differently. */
export type SwapMathVariant = "v3" | "v4";

export type SwapStep = {
  /** The price after the step: the target when reached, else where the remaining input ran out. */
  sqrtPriceNextX96: bigint;
  /** Input that moved the price (fee excluded). */
  amountIn: bigint;
  amountOut: bigint;
  /** Input kept as fee (LP fee plus, on V4, the protocol's share). */
  feeAmount: bigint;
};

/**
 * The step's price target: the next tick's price, unless the price limit comes first
 * (SwapMath.getSqrtPriceTarget in v4-core; the same ternary inline in v3-core's UniswapV3Pool.swap).
 */
export function getSqrtPriceTarget(zeroForOne: boolean, sqrtPriceNextX96: bigint, sqrtPriceLimitX96: bigint) {
  if (zeroForOne) return sqrtPriceNextX96 < sqrtPriceLimitX96 ? sqrtPriceLimitX96 : sqrtPriceNextX96;
  return sqrtPriceNextX96 > sqrtPriceLimitX96 ? sqrtPriceLimitX96 : sqrtPriceNextX96;
}

/**
 * The input (fee excluded, rounded up) that moves the price from `current` to `target`: the first thing
 * computeSwapStep computes for an exact input. It depends only on the step, not on the amount, so a caller
 * quoting many amounts from the same point can compute it once and pass it in.
 */
export function amountInToTarget(sqrtPriceCurrentX96: bigint, sqrtPriceTargetX96: bigint, liquidity: bigint) {
  return sqrtPriceCurrentX96 >= sqrtPriceTargetX96
    ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
    : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true);
}

/**
 * One exact-input swap step within a single tick range: SwapMath.computeSwapStep with an exact input
 * (v3-core: `amountRemaining >= 0`; v4-core: `amountRemaining < 0`); `amountRemaining` here is the
 * positive input still to swap.
 *
 * Both versions reach the target exactly when `amountRemaining * (1e6 - fee) / 1e6` (floored) covers the
 * input to the target, and then take `ceil(amountIn * fee / (1e6 - fee))` as fee; both produce the same
 * price and output. They differ only in a partial step: v3 recomputes `amountIn` from the new price,
 * v4 keeps `amountRemainingLessFee`; either way the fee is the rest, so `amountIn + feeAmount` is the same.
 * v4 also admits a 100% fee (`MAX_SWAP_FEE`, a valid static LP fee there), where a reached target means
 * a zero input and a zero fee.
 */
export function computeSwapStepExactIn(
  variant: SwapMathVariant,
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
  inputToTarget = amountInToTarget(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity),
): SwapStep {
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96;
  const amountRemainingLessFee = mulDiv(amountRemaining, MAX_SWAP_FEE - feePips, MAX_SWAP_FEE);
  let amountIn = inputToTarget;
  let sqrtPriceNextX96: bigint;
  let feeAmount: bigint;
  if (amountRemainingLessFee >= amountIn) {
    sqrtPriceNextX96 = sqrtPriceTargetX96;
    feeAmount =
      feePips === MAX_SWAP_FEE ? amountIn : mulDivRoundingUp(amountIn, feePips, MAX_SWAP_FEE - feePips);
  } else {
    sqrtPriceNextX96 = getNextSqrtPriceFromInput(
      sqrtPriceCurrentX96,
      liquidity,
      amountRemainingLessFee,
      zeroForOne,
    );
    if (variant === "v4") {
      amountIn = amountRemainingLessFee;
      feeAmount = amountRemaining - amountIn;
    } else if (sqrtPriceNextX96 === sqrtPriceTargetX96) {
      // v3 treats a rounded landing on the target as reaching it (cannot happen for exact input, since the
      // next price is rounded away from the target; mirrored rather than assumed).
      feeAmount = mulDivRoundingUp(amountIn, feePips, MAX_SWAP_FEE - feePips);
    } else {
      amountIn = zeroForOne
        ? getAmount0Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, true)
        : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, true);
      feeAmount = amountRemaining - amountIn;
    }
  }
  const amountOut = zeroForOne
    ? getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false)
    : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false);
  return { sqrtPriceNextX96, amountIn, amountOut, feeAmount };
}
