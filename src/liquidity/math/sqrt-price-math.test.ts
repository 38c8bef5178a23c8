import fc from "fast-check";
import { maxUint128 } from "viem";
import { describe, expect, it, vi } from "vitest";
import { SwapMathError } from "./errors.ts";
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "./sqrt-price-math.ts";
import { MAX_SQRT_PRICE, MIN_SQRT_PRICE } from "./tick-math.ts";

// Property runs are CPU-bound; a shared, busy machine must not turn them into timeouts.
vi.setConfig({ testTimeout: 30_000 });

const Q96 = 1n << 96n;
const E18 = 10n ** 18n;
const price = fc.bigInt({ min: MIN_SQRT_PRICE, max: MAX_SQRT_PRICE - 1n });
const liquidity = fc.bigInt({ min: 1n, max: maxUint128 });
const amount = fc.bigInt({ min: 0n, max: 1n << 200n });

describe("SqrtPriceMath", () => {
  it("matches v3-core's SqrtPriceMath.spec.ts values", () => {
    expect(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, false)).toBe(87150978765690771352898345369n);
    expect(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, true)).toBe(72025602285694852357767227579n);
    expect(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, false)).toBe(88031291682515930659493278152n);
    expect(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, true)).toBe(71305346262837903834189555302n);
    const sqrt121over100 = 87150978765690771352898345369n; // the 0.1 token1 price above, sqrt(1.21) * 2^96
    expect(getAmount1Delta(Q96, sqrt121over100, E18, true)).toBe(E18 / 10n);
  });

  it("rounds amounts up for what the pool receives and down for what it pays, by at most one wei", () => {
    fc.assert(
      fc.property(price, price, liquidity, (a, b, l) => {
        const up0 = getAmount0Delta(a, b, l, true);
        const down0 = getAmount0Delta(a, b, l, false);
        expect(up0 - down0 === 0n || up0 - down0 === 1n).toBe(true);
        const up1 = getAmount1Delta(a, b, l, true);
        const down1 = getAmount1Delta(a, b, l, false);
        expect(up1 - down1 === 0n || up1 - down1 === 1n).toBe(true);
        expect(getAmount0Delta(b, a, l, true)).toBe(up0);
      }),
    );
  });

  it("never moves the price further than the input pays for", () => {
    fc.assert(
      fc.property(price, liquidity, amount, fc.boolean(), (p, l, a, zeroForOne) => {
        let next: bigint;
        try {
          next = getNextSqrtPriceFromInput(p, l, a, zeroForOne);
        } catch (error) {
          expect(error).toBeInstanceOf(SwapMathError);
          return;
        }
        if (zeroForOne) {
          expect(next).toBeLessThanOrEqual(p);
          expect(getAmount0Delta(next, p, l, true)).toBeLessThanOrEqual(a);
        } else {
          expect(next).toBeGreaterThanOrEqual(p);
          expect(getAmount1Delta(p, next, l, true)).toBeLessThanOrEqual(a);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("moves the price at least far enough to pay out the output", () => {
    fc.assert(
      fc.property(price, liquidity, amount, fc.boolean(), (p, l, a, zeroForOne) => {
        let next: bigint;
        try {
          next = getNextSqrtPriceFromOutput(p, l, a, zeroForOne);
        } catch (error) {
          expect(error).toBeInstanceOf(SwapMathError);
          return;
        }
        if (next === 0n) return;
        const paid = zeroForOne ? getAmount1Delta(next, p, l, false) : getAmount0Delta(p, next, l, false);
        expect(paid).toBeGreaterThanOrEqual(a);
      }),
      { numRuns: 2000 },
    );
  });

  it("reverts where the pools do", () => {
    expect(() => getNextSqrtPriceFromInput(0n, 1n, 1n, true)).toThrow(
      expect.objectContaining({ code: "invalidPriceOrLiquidity" }),
    );
    expect(() => getNextSqrtPriceFromOutput(Q96, 1n, 2n, true)).toThrow(
      expect.objectContaining({ code: "notEnoughLiquidity" }),
    );
    expect(() => getAmount0Delta(0n, Q96, 1n, true)).toThrow(
      expect.objectContaining({ code: "invalidPrice" }),
    );
  });
});
