import fc from "fast-check";
import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { SwapMathError } from "./errors.ts";
import { divRoundingUp, mulDiv, mulDivRoundingUp } from "./full-math.ts";

const uint256 = fc.bigInt({ min: 0n, max: maxUint256 });
const positive = fc.bigInt({ min: 1n, max: maxUint256 });

describe("FullMath", () => {
  it("mulDiv floors and mulDivRoundingUp ceils the exact 512-bit quotient", () => {
    fc.assert(
      fc.property(uint256, uint256, positive, (a, b, d) => {
        const exact = a * b;
        if (exact / d > maxUint256) {
          expect(() => mulDiv(a, b, d)).toThrow(SwapMathError);
          return;
        }
        const down = mulDiv(a, b, d);
        expect(down * d <= exact && exact < (down + 1n) * d).toBe(true);
        const up = mulDivRoundingUp(a, b, d);
        expect(up - down).toBe(exact % d === 0n ? 0n : 1n);
      }),
    );
  });

  it("reverts on a zero denominator and on results past uint256, as Solidity does", () => {
    expect(() => mulDiv(1n, 1n, 0n)).toThrow(expect.objectContaining({ code: "divisionByZero" }));
    expect(() => mulDivRoundingUp(maxUint256, 2n, 1n)).toThrow(expect.objectContaining({ code: "overflow" }));
    // The rounding itself can overflow (v3-core FullMath.spec.ts): the floor is exactly maxUint256.
    const [a, b] = [535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n];
    expect(mulDiv(a, b, 2n)).toBe(maxUint256);
    expect(() => mulDivRoundingUp(a, b, 2n)).toThrow(SwapMathError);
  });

  it("divRoundingUp is the ceiling of the quotient", () => {
    fc.assert(
      fc.property(uint256, positive, (x, y) => {
        const q = divRoundingUp(x, y);
        expect(q * y >= x && (q - 1n) * y < x).toBe(true);
      }),
    );
  });
});
