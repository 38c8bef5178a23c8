import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { leastSignificantBit, mostSignificantBit } from "./bit-math.ts";
import { MAX_UINT256 } from "./full-math.ts";

describe("BitMath", () => {
  it("finds the most and least significant set bits of any uint256", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_UINT256 }), (x) => {
        const msb = mostSignificantBit(x);
        expect(x >= 1n << BigInt(msb) && x < 1n << BigInt(msb + 1)).toBe(true);
        const lsb = leastSignificantBit(x);
        expect((x >> BigInt(lsb)) & 1n).toBe(1n);
        expect(x & ((1n << BigInt(lsb)) - 1n)).toBe(0n);
      }),
    );
    expect(mostSignificantBit(1n)).toBe(0);
    expect(mostSignificantBit(MAX_UINT256)).toBe(255);
    expect(leastSignificantBit(1n << 255n)).toBe(255);
    expect(() => mostSignificantBit(0n)).toThrow();
  });
});
