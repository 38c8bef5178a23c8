import { SwapMathError } from "./errors.ts";

const STEPS = [128n, 64n, 32n, 16n, 8n, 4n, 2n, 1n] as const;

/**
 * Index of the most significant set bit of a uint256, as BitMath.mostSignificantBit (v3-core, v4-core):
 * x >= 2^msb and x < 2^(msb+1). Zero has none (v3 reverts; v4 is never called with it).
 */
export function mostSignificantBit(x: bigint): number {
  if (x <= 0n) throw new SwapMathError("overflow", "mostSignificantBit of zero");
  let r = 0n;
  for (const step of STEPS) {
    if (x >> step > 0n) {
      x >>= step;
      r += step;
    }
  }
  return Number(r);
}

/** Index of the least significant set bit of a uint256, as BitMath.leastSignificantBit. */
export function leastSignificantBit(x: bigint): number {
  if (x <= 0n) throw new SwapMathError("overflow", "leastSignificantBit of zero");
  return mostSignificantBit(x & -x);
}
