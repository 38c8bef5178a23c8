import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { usableWordRange } from "../math/tick-bitmap.ts";
import { getSqrtPriceAtTick, MIN_SQRT_PRICE } from "../math/tick-math.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";
import { stateFromPositions } from "./state-from-positions.ts";
import { type ExactInResult, swapExactIn } from "./swap-exact-in.ts";
import { amountIn, syntheticPool } from "./synthetic-pools.test-support.ts";

// Property runs are CPU-bound; a shared, busy machine must not turn them into timeouts.
vi.setConfig({ testTimeout: 30_000 });

const fee = fc.constantFrom(0n, 100n, 500n, 3000n, 10000n, 123_456n);
const out = (result: ExactInResult) => (result.status === "incomplete" ? undefined : result.amountOut);

describe("exact-input swap loop", () => {
  it("output never decreases as the input grows", () => {
    fc.assert(
      fc.property(syntheticPool, fc.boolean(), fee, amountIn, amountIn, (pool, zeroForOne, f, a, b) => {
        const [small, large] = a < b ? [a, b] : [b, a];
        expect(out(swapExactIn(pool, "v4", zeroForOne, f, large))!).toBeGreaterThanOrEqual(
          out(swapExactIn(pool, "v4", zeroForOne, f, small))!,
        );
      }),
      { numRuns: 400 },
    );
  });

  it("marginal output does not increase: each equal slice of input buys no more than the one before", () => {
    fc.assert(
      fc.property(syntheticPool, fc.boolean(), fee, amountIn, (pool, zeroForOne, f, slice) => {
        const quote = (n: bigint) => out(swapExactIn(pool, "v4", zeroForOne, f, slice * n))!;
        const [q1, q2, q3] = [quote(1n), quote(2n), quote(3n)];
        // Rounding happens per step and on the fee (a wei of input), both in the pool's favour: allow a few
        // wei of input at the marginal rate, plus a wei per rounded amount, of slack.
        const rate = (q2 - q1) / slice + 1n;
        expect(q3 - q2).toBeLessThanOrEqual(q2 - q1 + 3n * rate + 2n);
      }),
      { numRuns: 400 },
    );
  });

  it("the pool keeps what it owes: amountIn is at most the input and only short of it at the price limit", () => {
    fc.assert(
      fc.property(syntheticPool, fc.boolean(), fee, amountIn, (pool, zeroForOne, f, a) => {
        const result = swapExactIn(pool, "v3", zeroForOne, f, a);
        if (result.status === "incomplete") throw new Error("a complete pool state never needs more");
        if (result.status === "filled") expect(result.amountIn).toBe(a);
        else expect(result.amountIn).toBeLessThan(a);
        if (zeroForOne) expect(result.after.sqrtPriceX96).toBeLessThanOrEqual(pool.sqrtPriceX96);
        else expect(result.after.sqrtPriceX96).toBeGreaterThanOrEqual(pool.sqrtPriceX96);
      }),
      { numRuns: 400 },
    );
  });

  it("v3 and v4 loops give the same amounts and final state", () => {
    fc.assert(
      fc.property(syntheticPool, fc.boolean(), fee, amountIn, (pool, zeroForOne, f, a) => {
        expect(swapExactIn(pool, "v3", zeroForOne, f, a)).toEqual(swapExactIn(pool, "v4", zeroForOne, f, a));
      }),
      { numRuns: 300 },
    );
  });

  it("drains a bounded range to the price limit and reports what was consumed", () => {
    const pool = stateFromPositions(getSqrtPriceAtTick(5), 10, [
      { tickLower: -100, tickUpper: 100, liquidity: 10n ** 18n },
    ]);
    const result = swapExactIn(pool, "v4", true, 3000n, 10n ** 30n);
    expect(result.status).toBe("priceLimit");
    if (result.status !== "priceLimit") return;
    expect(result.after.sqrtPriceX96).toBe(MIN_SQRT_PRICE + 1n);
    expect(result.after.liquidity).toBe(0n);
    expect(result.ticksCrossed).toBe(1);
    expect(result.amountIn).toBeLessThan(10n ** 30n);
  });
});

describe("partially loaded state", () => {
  /** The same pool with only `radius` bitmap words either side of the price's word loaded. */
  function window(pool: ConcentratedPoolState, radius: number): ConcentratedPoolState {
    const center = Math.floor(Math.floor(pool.tick / pool.tickSpacing) / 256);
    const usable = usableWordRange(pool.tickSpacing);
    const from = Math.max(usable.min, center - radius);
    const to = Math.min(usable.max, center + radius);
    const words = new Map([...pool.bitmap.words].filter(([position]) => position >= from && position <= to));
    return { ...pool, bitmap: { from, to, words } };
  }

  it("gives the complete state's exact answer or asks for more, never another number", () => {
    fc.assert(
      fc.property(
        syntheticPool,
        fc.boolean(),
        amountIn,
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (pool, zeroForOne, a, radius, dropTick) => {
          let partial = window(pool, radius);
          if (dropTick) {
            const ticks = [...partial.liquidityNet.keys()];
            const dropped = ticks[Math.floor(ticks.length / 2)];
            partial = {
              ...partial,
              liquidityNet: new Map([...partial.liquidityNet].filter(([tick]) => tick !== dropped)),
            };
          }
          const full = swapExactIn(pool, "v4", zeroForOne, 3000n, a);
          const result = swapExactIn(partial, "v4", zeroForOne, 3000n, a);
          if (result.status !== "incomplete") expect(result).toEqual(full);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("names the bitmap word it needs", () => {
    const pool = stateFromPositions(getSqrtPriceAtTick(0), 1, [
      { tickLower: -2000, tickUpper: 2000, liquidity: 10n ** 18n },
    ]);
    const result = swapExactIn(window(pool, 1), "v4", true, 3000n, 10n ** 30n);
    expect(result).toEqual({ status: "incomplete", missing: { kind: "bitmapWord", wordPos: -2 } });
  });
});
