import { maxUint160, maxUint256 } from "viem";
import { SwapMathError } from "./errors.ts";
import { divRoundingUp, mulDiv, mulDivRoundingUp, Q96 } from "./full-math.ts";

/**
 * SqrtPriceMath (v3-core and v4-core: the same formulas, the same rounding and the same overflow fallbacks;
 * v4 only changed revert encodings). Where Solidity relies on uint256 wrap-around to detect overflow, the
 * bigint code compares against 2^256 explicitly, so that the fallback branch is taken for exactly the same
 * inputs.
 */

function toUint160(value: bigint): bigint {
  if (value > maxUint160) throw new SwapMathError("overflow", "sqrt price exceeds uint160");
  return value;
}

/**
 * Next sqrt price after adding (`add`) or removing `amount` of token0, rounded up
 * (getNextSqrtPriceFromAmount0RoundingUp): liquidity * sqrtP / (liquidity ± amount * sqrtP), or
 * liquidity / (liquidity / sqrtP + amount) when the product overflows 256 bits.
 */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96;
  if (add) {
    if (product <= maxUint256) {
      const denominator = numerator1 + product;
      if (denominator <= maxUint256) return mulDivRoundingUp(numerator1, sqrtPX96, denominator);
    }
    const denominator = numerator1 / sqrtPX96 + amount;
    if (denominator > maxUint256) throw new SwapMathError("overflow", "amount0 denominator overflows");
    return divRoundingUp(numerator1, denominator);
  }
  if (product > maxUint256 || numerator1 <= product)
    throw new SwapMathError("notEnoughLiquidity", "removing more token0 than the pool holds");
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

/**
 * Next sqrt price after adding or removing `amount` of token1, rounded down
 * (getNextSqrtPriceFromAmount1RoundingDown): sqrtP ± amount / liquidity.
 */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (add) {
    const quotient = amount <= maxUint160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
    return toUint160(sqrtPX96 + quotient);
  }
  const quotient =
    amount <= maxUint160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient)
    throw new SwapMathError("notEnoughLiquidity", "removing more token1 than the pool holds");
  return sqrtPX96 - quotient;
}

/** Price after swapping `amountIn` in, rounded so the target is never passed (getNextSqrtPriceFromInput). */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 === 0n || liquidity === 0n)
    throw new SwapMathError("invalidPriceOrLiquidity", "zero price or liquidity");
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/** Price after taking `amountOut` out, rounded so the target is passed (getNextSqrtPriceFromOutput). */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 === 0n || liquidity === 0n)
    throw new SwapMathError("invalidPriceOrLiquidity", "zero price or liquidity");
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

/**
 * Token0 between two prices for `liquidity` (getAmount0Delta):
 * liquidity * 2^96 * (sqrtB - sqrtA) / sqrtB / sqrtA, rounded up or down in two stages exactly as Solidity.
 */
export function getAmount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (sqrtA > sqrtB) [sqrtA, sqrtB] = [sqrtB, sqrtA];
  if (sqrtA === 0n) throw new SwapMathError("invalidPrice", "zero sqrt price");
  const numerator1 = liquidity << 96n;
  const numerator2 = sqrtB - sqrtA;
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, sqrtB), sqrtA)
    : mulDiv(numerator1, numerator2, sqrtB) / sqrtA;
}

/** Token1 between two prices for `liquidity` (getAmount1Delta): liquidity * |sqrtB - sqrtA| / 2^96. */
export function getAmount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const difference = sqrtA > sqrtB ? sqrtA - sqrtB : sqrtB - sqrtA;
  return roundUp ? mulDivRoundingUp(liquidity, difference, Q96) : mulDiv(liquidity, difference, Q96);
}
