import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateSwapFee, getOneForZeroFee, getZeroForOneFee } from "./protocol-fee.ts";

describe("ProtocolFeeLibrary", () => {
  it("unpacks one 12-bit fee per direction", () => {
    const packed = (700 << 12) | 250;
    expect(getZeroForOneFee(packed)).toBe(250);
    expect(getOneForZeroFee(packed)).toBe(700);
  });

  it("composes protocol and LP fees as protocol + lp * (1 - protocol), rounded up in the pool's favour", () => {
    expect(calculateSwapFee(0, 3000)).toBe(3000);
    expect(calculateSwapFee(1000, 0)).toBe(1000);
    expect(calculateSwapFee(1000, 3000)).toBe(3997); // 1000 + 3000 - floor(3_000_000 / 1e6)
    expect(calculateSwapFee(1000, 1_000_000)).toBe(1_000_000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1_000_000 }), (p, lp) => {
        const exact = p + (lp * (1_000_000 - p)) / 1_000_000;
        const fee = calculateSwapFee(p, lp);
        expect(fee).toBeGreaterThanOrEqual(exact);
        expect(fee - exact).toBeLessThan(1);
        expect(fee).toBeLessThanOrEqual(1_000_000);
      }),
    );
  });
});
