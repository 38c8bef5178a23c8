import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitmapWordOf, compress, nextInitializedTickWithinOneWord, position } from "./tick-bitmap.ts";

/** Brute force over a set of initialized ticks: the next one within the word, or the word's edge. */
function expected(ticks: Set<number>, tick: number, spacing: number, lte: boolean) {
  const start = lte ? compress(tick, spacing) : compress(tick, spacing) + 1;
  const { wordPos } = position(start);
  const step = lte ? -1 : 1;
  for (let c = start; c >> 8 === wordPos; c += step) {
    if (ticks.has(c * spacing)) return { next: c * spacing, initialized: true };
  }
  const edge = lte ? wordPos * 256 : wordPos * 256 + 255;
  return { next: edge * spacing, initialized: false };
}

describe("TickBitmap.nextInitializedTickWithinOneWord", () => {
  it("agrees with a brute-force scan of the word, in both directions and for negative ticks", () => {
    const spacing = fc.constantFrom(1, 10, 60, 200);
    fc.assert(
      fc.property(
        spacing,
        fc.integer({ min: -3000, max: 3000 }),
        fc.uniqueArray(fc.integer({ min: -700, max: 700 }), { maxLength: 12 }),
        fc.boolean(),
        (s, tick, compressedTicks, lte) => {
          const ticks = new Set(compressedTicks.map((c) => c * s));
          const words = new Map<number, bigint>();
          for (const t of ticks) {
            const { wordPos, bitPos } = position(compress(t, s));
            words.set(wordPos, (words.get(wordPos) ?? 0n) | (1n << BigInt(bitPos)));
          }
          const word = words.get(bitmapWordOf(tick, s, lte)) ?? 0n;
          expect(nextInitializedTickWithinOneWord(word, tick, s, lte)).toEqual(expected(ticks, tick, s, lte));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("compresses towards negative infinity", () => {
    expect(compress(-1, 10)).toBe(-1);
    expect(compress(-10, 10)).toBe(-1);
    expect(compress(-11, 10)).toBe(-2);
    expect(position(-1)).toEqual({ wordPos: -1, bitPos: 255 });
  });
});
