import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SwapMathError } from "./errors.ts";
import {
  getSqrtPriceAtTick,
  getTickAtSqrtPrice,
  MAX_SQRT_PRICE,
  MAX_TICK,
  MIN_SQRT_PRICE,
  MIN_TICK,
} from "./tick-math.ts";

// Property runs are CPU-bound; a shared, busy machine must not turn them into timeouts.
vi.setConfig({ testTimeout: 30_000 });

const tick = fc.integer({ min: MIN_TICK, max: MAX_TICK });
const sqrtPrice = fc.bigInt({ min: MIN_SQRT_PRICE, max: MAX_SQRT_PRICE - 1n });

/** The definition getTickAtSqrtPrice implements: the greatest tick whose price is at most the input. */
function greatestTickAtOrBelow(price: bigint): number {
  let [low, high] = [MIN_TICK, MAX_TICK];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (getSqrtPriceAtTick(middle) <= price) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** TickMath.getTickAtSqrtPrice ported literally (fixed-point log2, 14 squarings): the oracle for the fast one. */
function solidityGetTickAtSqrtPrice(sqrtPriceX96: bigint): number {
  const ratio = sqrtPriceX96 << 32n;
  const msb = ratio.toString(2).length - 1;
  let r = msb >= 128 ? ratio >> BigInt(msb - 127) : ratio << BigInt(127 - msb);
  let log2 = BigInt(msb - 128) << 64n;
  for (let shift = 63n; shift >= 50n; shift--) {
    r = (r * r) >> 127n;
    const f = r >> 128n;
    log2 |= f << shift;
    r >>= f;
  }
  const logSqrt10001 = log2 * 255738958999603826347141n;
  const tickLow = Number((logSqrt10001 - 3402992956809132418596140100660247210n) >> 128n);
  const tickHigh = Number((logSqrt10001 + 291339464771989622907027621153398088495n) >> 128n);
  if (tickLow === tickHigh) return tickLow;
  return getSqrtPriceAtTick(tickHigh) <= sqrtPriceX96 ? tickHigh : tickLow;
}

describe("TickMath", () => {
  it("maps the tick bounds to the documented sqrt price bounds and tick 0 to 2^96", () => {
    expect(getSqrtPriceAtTick(MIN_TICK)).toBe(MIN_SQRT_PRICE);
    expect(getSqrtPriceAtTick(MAX_TICK)).toBe(MAX_SQRT_PRICE);
    expect(getSqrtPriceAtTick(0)).toBe(1n << 96n);
    // Values from v3-core's TickMath.spec.ts snapshots.
    expect(getSqrtPriceAtTick(50)).toBe(79426470787362580746886972461n);
    expect(getSqrtPriceAtTick(-50)).toBe(79030349367926598376800521322n);
    expect(getSqrtPriceAtTick(100)).toBe(79625275426524748796330556128n);
  });

  it("refuses ticks and prices outside the range, as the pools revert", () => {
    expect(() => getSqrtPriceAtTick(MAX_TICK + 1)).toThrow(SwapMathError);
    expect(() => getSqrtPriceAtTick(MIN_TICK - 1)).toThrow(SwapMathError);
    expect(() => getTickAtSqrtPrice(MIN_SQRT_PRICE - 1n)).toThrow(SwapMathError);
    expect(() => getTickAtSqrtPrice(MAX_SQRT_PRICE)).toThrow(SwapMathError);
  });

  it("getTickAtSqrtPrice(getSqrtPriceAtTick(t)) == t", () => {
    fc.assert(
      fc.property(
        tick.filter((t) => t < MAX_TICK),
        (t) => {
          expect(getTickAtSqrtPrice(getSqrtPriceAtTick(t))).toBe(t);
        },
      ),
      { numRuns: 2000 },
    );
    expect(getTickAtSqrtPrice(MIN_SQRT_PRICE)).toBe(MIN_TICK);
    expect(getTickAtSqrtPrice(MAX_SQRT_PRICE - 1n)).toBe(MAX_TICK - 1);
  });

  it("getTickAtSqrtPrice is the greatest tick whose price is at most the input", () => {
    fc.assert(
      fc.property(sqrtPrice, (price) => {
        expect(getTickAtSqrtPrice(price)).toBe(greatestTickAtOrBelow(price));
      }),
      { numRuns: 300 },
    );
    // Just below a tick's price belongs to the tick before it.
    fc.assert(
      fc.property(
        tick.filter((t) => t > MIN_TICK && t < MAX_TICK),
        (t) => {
          expect(getTickAtSqrtPrice(getSqrtPriceAtTick(t) - 1n)).toBe(t - 1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("getTickAtSqrtPrice equals the Solidity algorithm on random prices and right at tick boundaries", () => {
    fc.assert(
      fc.property(sqrtPrice, (price) => {
        expect(getTickAtSqrtPrice(price)).toBe(solidityGetTickAtSqrtPrice(price));
      }),
      { numRuns: 20_000 },
    );
    const nearBoundary = fc
      .tuple(tick, fc.constantFrom(-2n, -1n, 0n, 1n, 2n, 1n << 20n, -(1n << 20n), 1n << 60n))
      .map(([t, delta]) => getSqrtPriceAtTick(t) + delta)
      .filter((p) => p >= MIN_SQRT_PRICE && p < MAX_SQRT_PRICE);
    fc.assert(
      fc.property(nearBoundary, (price) => {
        expect(getTickAtSqrtPrice(price)).toBe(solidityGetTickAtSqrtPrice(price));
      }),
      { numRuns: 20_000 },
    );
  });

  it("getSqrtPriceAtTick is strictly increasing", () => {
    fc.assert(
      fc.property(
        tick.filter((t) => t < MAX_TICK),
        (t) => {
          expect(getSqrtPriceAtTick(t + 1)).toBeGreaterThan(getSqrtPriceAtTick(t));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
