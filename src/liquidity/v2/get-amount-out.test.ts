import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getAmountOut, quoteV2ExactIn } from "./get-amount-out.ts";

const reserve = fc.bigInt({ min: 1000n, max: 10n ** 30n });
const amount = fc.bigInt({ min: 1n, max: 10n ** 30n });

describe("V2 getAmountOut", () => {
  it("matches the constant-product formula with the 0.30% fee", () => {
    // 1 token in at 1:1 reserves of 1e18: 997e15 * 1e18 / (1e21 + 997e15).
    expect(getAmountOut(10n ** 15n, 10n ** 18n, 10n ** 18n)).toBe(996006981039903n);
  });

  it("never pays the whole reserve, and never lowers the pool's invariant", () => {
    fc.assert(
      fc.property(amount, reserve, reserve, (a, rIn, rOut) => {
        const out = getAmountOut(a, rIn, rOut);
        expect(out).toBeLessThan(rOut);
        expect((rIn + a) * (rOut - out)).toBeGreaterThanOrEqual(rIn * rOut);
      }),
    );
  });

  it("is monotone and concave in the input", () => {
    fc.assert(
      fc.property(amount, reserve, reserve, (slice, rIn, rOut) => {
        const [q1, q2, q3] = [1n, 2n, 3n].map((n) => getAmountOut(slice * n, rIn, rOut)) as [
          bigint,
          bigint,
          bigint,
        ];
        expect(q2).toBeGreaterThanOrEqual(q1);
        expect(q3 - q2).toBeLessThanOrEqual(q2 - q1 + 1n);
      }),
    );
  });

  it("refuses a zero input and empty reserves, as UniswapV2Library does", () => {
    expect(() => getAmountOut(0n, 1n, 1n)).toThrow(expect.objectContaining({ code: "invalidAmount" }));
    expect(() => getAmountOut(1n, 0n, 1n)).toThrow(expect.objectContaining({ code: "notEnoughLiquidity" }));
    const pair = {
      kind: "v2",
      address: "0x01",
      blockNumber: 1n,
      reserve0: 10n ** 18n,
      reserve1: 2n * 10n ** 18n,
    } as const;
    expect(quoteV2ExactIn(pair, true, 10n ** 15n)).toBe(
      getAmountOut(10n ** 15n, 10n ** 18n, 2n * 10n ** 18n),
    );
    expect(quoteV2ExactIn(pair, false, 10n ** 15n)).toBe(
      getAmountOut(10n ** 15n, 2n * 10n ** 18n, 10n ** 18n),
    );
  });
});
