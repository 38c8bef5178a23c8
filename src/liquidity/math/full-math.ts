import { maxUint256 } from "viem";
import { SwapMathError } from "./errors.ts";

/** 2^96: sqrt prices are Q64.96 (FixedPoint96.Q96). */
export const Q96 = 1n << 96n;

/**
 * floor(a * b / denominator) with full 512-bit intermediate precision, as FullMath.mulDiv (v3-core and
 * v4-core): reverts when the denominator is zero or the result does not fit a uint256. bigint is arbitrary
 * precision, so the 512-bit product is exact and only the revert conditions need mirroring.
 */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new SwapMathError("divisionByZero", "mulDiv by zero");
  const result = (a * b) / denominator;
  if (result > maxUint256) throw new SwapMathError("overflow", "mulDiv result exceeds uint256");
  return result;
}

/** ceil(a * b / denominator), as FullMath.mulDivRoundingUp; same reverts as `mulDiv`. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new SwapMathError("divisionByZero", "mulDivRoundingUp by zero");
  const result = (a * b + denominator - 1n) / denominator;
  if (result > maxUint256) throw new SwapMathError("overflow", "mulDivRoundingUp result exceeds uint256");
  return result;
}

/**
 * ceil(x / y) as UnsafeMath.divRoundingUp. Solidity returns 0 for y == 0 (EVM division); every caller in
 * the swap math guards against that, so here it is an error rather than a silent zero.
 */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) throw new SwapMathError("divisionByZero", "divRoundingUp by zero");
  return (x + y - 1n) / y;
}
