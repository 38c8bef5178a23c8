import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  amountsForLiquidity,
  liquidityForAmounts,
  MAX_TICK,
  MIN_TICK,
  Q96,
  sqrt,
  sqrtPriceX96,
  sqrtRatioAtTick,
} from "./price-math.ts";

describe("price math", () => {
  it("matches TickMath at known ticks", () => {
    expect(sqrtRatioAtTick(0)).toBe(Q96);
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(4295128739n);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n);
    // From v3-core's TickMath tests.
    expect(sqrtRatioAtTick(50)).toBe(79426470787362580746886972461n);
    expect(sqrtRatioAtTick(-50)).toBe(79030349367926598376800521322n);
  });

  it("integer sqrt is the floor square root", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), (n) => {
        const r = sqrt(n);
        return r * r <= n && (r + 1n) * (r + 1n) > n;
      }),
    );
  });

  it("sqrtPriceX96 encodes the raw amount ratio", () => {
    // 1 WETH (18 decimals) = 3000 USDC (6 decimals): price = 3000e6 / 1e18.
    const price = sqrtPriceX96(10n ** 18n, 3000n * 10n ** 6n);
    const squared = (price * price * 10n ** 18n) / 2n ** 192n;
    expect(squared).toBeGreaterThanOrEqual(3000n * 10n ** 6n - 1n);
    expect(squared).toBeLessThanOrEqual(3000n * 10n ** 6n);
  });

  it("liquidity for amounts never needs more than those amounts", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -200_000, max: 200_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        fc.integer({ min: 1, max: 50_000 }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        (tick, below, above, amount0, amount1) => {
          const sqrtP = sqrtRatioAtTick(tick);
          const sqrtA = sqrtRatioAtTick(tick - below);
          const sqrtB = sqrtRatioAtTick(tick + above);
          const liquidity = liquidityForAmounts(sqrtP, sqrtA, sqrtB, amount0, amount1);
          const needed = amountsForLiquidity(sqrtP, sqrtA, sqrtB, liquidity);
          return needed.amount0 <= amount0 + 1n && needed.amount1 <= amount1 + 1n;
        },
      ),
    );
  });
});
