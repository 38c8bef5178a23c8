import { maxUint256 } from "viem";
import { leastSignificantBit, mostSignificantBit } from "./bit-math.ts";
import { MAX_TICK, MIN_TICK } from "./tick-math.ts";

/**
 * TickBitmap (v3-core and v4-core, identical semantics): bit `compressed & 255` of word `compressed >> 8`
 * is set when tick `compressed * tickSpacing` is initialized. Split so a caller can first ask which word a
 * lookup reads (`bitmapWordOf`), check that it was loaded, and only then compute on it, so that a missing
 * word can never be mistaken for an empty one.
 */

/** tick / tickSpacing rounded towards negative infinity (TickBitmap.compress). */
export function compress(tick: number, tickSpacing: number): number {
  return Math.floor(tick / tickSpacing);
}

/** The word and bit of a compressed tick (TickBitmap.position). */
export function position(compressed: number): { wordPos: number; bitPos: number } {
  return { wordPos: compressed >> 8, bitPos: compressed & 0xff };
}

/** The word `nextInitializedTickWithinOneWord(tick, tickSpacing, lte)` reads. */
export function bitmapWordOf(tick: number, tickSpacing: number, lte: boolean): number {
  const compressed = compress(tick, tickSpacing);
  return (lte ? compressed : compressed + 1) >> 8;
}

/**
 * The range of words that can ever hold a set bit for this spacing: every initialized tick lies within
 * [MIN_TICK, MAX_TICK]. Words outside it are zero in storage, so a swap may treat them as read.
 */
export function usableWordRange(tickSpacing: number): { min: number; max: number } {
  return {
    min: compress(MIN_TICK, tickSpacing) >> 8,
    max: compress(MAX_TICK, tickSpacing) >> 8,
  };
}

/**
 * The next initialized tick within the word of `tick` (at or left of it when `lte`, strictly right of it
 * otherwise), or the word's boundary tick with `initialized: false`, as
 * TickBitmap.nextInitializedTickWithinOneWord. `word` must be the bitmap word `bitmapWordOf` named.
 */
export function nextInitializedTickWithinOneWord(
  word: bigint,
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { next: number; initialized: boolean } {
  let compressed = compress(tick, tickSpacing);
  if (lte) {
    const { bitPos } = position(compressed);
    const masked = word & ((1n << BigInt(bitPos + 1)) - 1n);
    if (masked !== 0n)
      return { next: (compressed - (bitPos - mostSignificantBit(masked))) * tickSpacing, initialized: true };
    return { next: (compressed - bitPos) * tickSpacing, initialized: false };
  }
  compressed += 1;
  const { bitPos } = position(compressed);
  const masked = word & (maxUint256 ^ ((1n << BigInt(bitPos)) - 1n));
  if (masked !== 0n)
    return { next: (compressed + (leastSignificantBit(masked) - bitPos)) * tickSpacing, initialized: true };
  return { next: (compressed + (255 - bitPos)) * tickSpacing, initialized: false };
}
