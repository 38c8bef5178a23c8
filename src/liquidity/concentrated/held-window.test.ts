import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstReadWindow, heldView, narrowed } from "./held-window.ts";
import { swapExactIn } from "./swap-exact-in.ts";
import { amountIn, syntheticPool } from "./synthetic-pools.test-support.ts";

describe("heldView (a followed pool as a quote reads it)", () => {
  it("swaps exactly as a direct read over the same words, stopping at the same missing word", () => {
    fc.assert(
      fc.property(
        syntheticPool,
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.array(amountIn, { minLength: 1, maxLength: 8 }),
        (pool, zeroForOne, grow, amounts) => {
          // The quote's window, grown by a few words: what a widening asks of a followed pool.
          const first = firstReadWindow(pool);
          const window = { from: Math.max(pool.bitmap.from, first.from - grow), to: first.to };
          const view = heldView(pool, window)!;
          const read = narrowed(pool, window);
          expect(view.bitmap).toMatchObject(window);
          // Shared, not copied: the held maps, with words and ticks beyond the window nothing may read.
          expect(view.bitmap.words).toBe(pool.bitmap.words);
          expect(view.liquidityNet).toBe(pool.liquidityNet);
          for (const amount of amounts)
            expect(swapExactIn(view, "v3", zeroForOne, 3000n, amount)).toEqual(
              swapExactIn(read, "v3", zeroForOne, 3000n, amount),
            );
        },
      ),
      { numRuns: 200 },
    );
  }, 30_000);

  it("is undefined for words past the held ones, which a quote then reads itself", () => {
    fc.assert(
      fc.property(syntheticPool, (pool) => {
        const held = narrowed(pool, firstReadWindow(pool));
        expect(heldView(held)).toBeDefined();
        expect(heldView(held, { from: held.bitmap.from - 1, to: held.bitmap.to })).toBeUndefined();
        expect(heldView(held, { from: held.bitmap.from, to: held.bitmap.to + 1 })).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });
});
