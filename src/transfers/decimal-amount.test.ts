import { describe, expect, it } from "vitest";
import {
  DECIMAL_AMOUNT_PATTERN,
  fitsDecimalAmount,
  formatDecimalAmount,
  parseDecimalAmount,
} from "./decimal-amount.ts";
import { reservedFee } from "./fees.ts";

describe("transfer decimal amounts", () => {
  it("parses exactly into base units and prints back the normalised text", () => {
    for (const [text, decimals, units, printed] of [
      ["0", 18, 0n, "0"],
      ["1.5", 18, 1_500_000_000_000_000_000n, "1.5"],
      ["0.000000000000000001", 18, 1n, "0.000000000000000001"],
      ["100.100000", 6, 100_100_000n, "100.1"],
      [
        "999999999999999999999.999999999999999999",
        18,
        10n ** 39n - 1n,
        "999999999999999999999.999999999999999999",
      ],
    ] as const) {
      expect(parseDecimalAmount(text, decimals), text).toBe(units);
      expect(formatDecimalAmount(units, decimals)).toBe(printed);
      expect(printed).toMatch(DECIMAL_AMOUNT_PATTERN);
    }
  });

  it("refuses text off the pattern, and fraction digits the asset does not have", () => {
    for (const text of [
      "",
      "01",
      "1.",
      ".1",
      "-1",
      "1e3",
      "1_000",
      "0x10",
      "1000000000000000000000",
      "1.0000000000000000001",
    ])
      expect(parseDecimalAmount(text, 18), text).toBeUndefined();
    expect(parseDecimalAmount("1.0000001", 6)).toBeUndefined();
    expect(parseDecimalAmount("1.000001", 6)).toBe(1_000_001n);
  });

  it("knows which base-unit values print within 21 integer digits", () => {
    expect(fitsDecimalAmount(10n ** 39n - 1n, 18)).toBe(true);
    expect(fitsDecimalAmount(10n ** 39n, 18)).toBe(false);
  });

  it("reserves 20 bps rounded up to the base unit, never more than one unit above the exact fee", () => {
    expect(reservedFee(0n)).toBe(0n);
    expect(reservedFee(1n)).toBe(1n);
    expect(reservedFee(500n)).toBe(1n);
    expect(reservedFee(501n)).toBe(2n);
    expect(reservedFee(1_500_000_000_000_000_000n)).toBe(3_000_000_000_000_000n);
    for (let amount = 0n; amount < 2_000n; amount += 7n) {
      const fee = reservedFee(amount);
      expect(fee * 10_000n >= amount * 20n && (fee - 1n) * 10_000n < amount * 20n).toBe(true);
    }
  });
});
