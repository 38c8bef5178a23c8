import fc from "fast-check";
import { maxUint128 } from "viem";
import { describe, expect, it, vi } from "vitest";
import { computeSwapStepExactIn, getSqrtPriceTarget, MAX_SWAP_FEE } from "./swap-math.ts";
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "./tick-math.ts";

// Property runs are CPU-bound; a shared, busy machine must not turn them into timeouts.
vi.setConfig({ testTimeout: 30_000 });

const price = fc.bigInt({ min: MIN_SQRT_PRICE, max: MAX_SQRT_PRICE - 1n });
const liquidity = fc.bigInt({ min: 0n, max: maxUint128 });
const amount = fc.bigInt({ min: 1n, max: (1n << 127n) - 1n });
const fee = fc.oneof(fc.constantFrom(0n, 100n, 500n, 3000n, 10000n), fc.bigInt({ min: 0n, max: 999_999n }));

describe("SwapMath.computeSwapStep, exact input", () => {
  it("never takes more than the input left, nor moves past the target", () => {
    fc.assert(
      fc.property(price, price, liquidity, amount, fee, (current, target, l, remaining, f) => {
        const step = computeSwapStepExactIn("v4", current, target, l, remaining, f);
        expect(step.amountIn + step.feeAmount).toBeLessThanOrEqual(remaining);
        if (current >= target) {
          expect(step.sqrtPriceNextX96).toBeGreaterThanOrEqual(target);
          expect(step.sqrtPriceNextX96).toBeLessThanOrEqual(current);
        } else {
          expect(step.sqrtPriceNextX96).toBeLessThanOrEqual(target);
          expect(step.sqrtPriceNextX96).toBeGreaterThanOrEqual(current);
        }
        // A step that stops short of its target consumed everything.
        if (step.sqrtPriceNextX96 !== target) expect(step.amountIn + step.feeAmount).toBe(remaining);
      }),
      { numRuns: 3000 },
    );
  });

  it("v3 and v4 agree on price, output and total input; they only split a partial step differently", () => {
    fc.assert(
      fc.property(price, price, liquidity, amount, fee, (current, target, l, remaining, f) => {
        const v3 = computeSwapStepExactIn("v3", current, target, l, remaining, f);
        const v4 = computeSwapStepExactIn("v4", current, target, l, remaining, f);
        expect(v3.sqrtPriceNextX96).toBe(v4.sqrtPriceNextX96);
        expect(v3.amountOut).toBe(v4.amountOut);
        expect(v3.amountIn + v3.feeAmount).toBe(v4.amountIn + v4.feeAmount);
        expect(v3.amountIn).toBeLessThanOrEqual(v4.amountIn);
      }),
      { numRuns: 3000 },
    );
  });

  it("takes the whole input as fee at a 100% V4 fee, and crosses empty ranges for free", () => {
    const step = computeSwapStepExactIn("v4", 1n << 96n, (1n << 96n) / 2n, 10n ** 18n, 12345n, MAX_SWAP_FEE);
    expect(step).toEqual({ sqrtPriceNextX96: 1n << 96n, amountIn: 0n, amountOut: 0n, feeAmount: 12345n });
    const empty = computeSwapStepExactIn("v4", 1n << 96n, (1n << 96n) / 2n, 0n, 12345n, MAX_SWAP_FEE);
    expect(empty).toEqual({ sqrtPriceNextX96: (1n << 96n) / 2n, amountIn: 0n, amountOut: 0n, feeAmount: 0n });
  });

  it("targets the nearer of the next tick's price and the limit", () => {
    expect(getSqrtPriceTarget(true, 100n, 50n)).toBe(100n);
    expect(getSqrtPriceTarget(true, 40n, 50n)).toBe(50n);
    expect(getSqrtPriceTarget(false, 100n, 50n)).toBe(50n);
    expect(getSqrtPriceTarget(false, 40n, 50n)).toBe(40n);
  });
});
