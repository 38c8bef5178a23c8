/**
 * A transfer amount as the API writes it (docs/rules.md, transfer estimate rule 4): a decimal string in
 * asset units, at most 21 integer digits and 18 fraction digits, no leading zeros, no sign, no exponent.
 */
export const DECIMAL_AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,20})(\.[0-9]{1,18})?$/;

/**
 * The amount in the asset's base units (`decimals` fraction digits), exactly, on bigints; undefined when the
 * text does not match {@link DECIMAL_AMOUNT_PATTERN} or carries more fraction digits than the asset has.
 */
export function parseDecimalAmount(text: string, decimals: number): bigint | undefined {
  if (!DECIMAL_AMOUNT_PATTERN.test(text)) return undefined;
  const [whole = "0", fraction = ""] = text.split(".");
  if (fraction.length > decimals) return undefined;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

/**
 * Base units as a decimal string in asset units: exact, trailing fraction zeros dropped, no dot for a whole
 * number (so it matches {@link DECIMAL_AMOUNT_PATTERN} whenever the value has at most 21 integer digits).
 */
export function formatDecimalAmount(units: bigint, decimals: number): string {
  if (units < 0n) throw new RangeError("a transfer amount is never negative");
  const scale = 10n ** BigInt(decimals);
  const whole = (units / scale).toString();
  const fraction = (units % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/** True when base units print as an amount the API may return (at most 21 integer digits). */
export function fitsDecimalAmount(units: bigint, decimals: number): boolean {
  return units >= 0n && units < 10n ** BigInt(21 + decimals);
}
