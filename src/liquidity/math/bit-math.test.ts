import fc from "fast-check";
import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { leastSignificantBit, mostSignificantBit } from "./bit-math.ts";

describe("BitMath", () => {
  it("finds the most and least significant set bits of any uint256", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: maxUint256 }), (x) => {
        const msb = mostSignificantBit(x);
        expect(x >= 1n << BigInt(msb) && x < 1n << BigInt(msb + 1)).toBe(true);
        const lsb = leastSignificantBit(x);
        expect((x >> BigInt(lsb)) & 1n).toBe(1n);
        expect(x & ((1n << BigInt(lsb)) - 1n)).toBe(0n);
      }),
    );
    expect(mostSignificantBit(1n)).toBe(0);
    expect(mostSignificantBit(maxUint256)).toBe(255);
    expect(leastSignificantBit(1n << 255n)).toBe(255);
    expect(() => mostSignificantBit(0n)).toThrow();
  });
});
