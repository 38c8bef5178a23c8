import type { AssetBook, AssetKind } from "../../transfers/assets.ts";
import { ASSET_DECIMALS } from "../../transfers/assets.ts";
import { ETH_PRICE_E8 } from "../universe.ts";

/**
 * `units` of `from` in base units of `to` at the devnet universe's reference ETH price (the stable asset is
 * $1), rounded down.
 */
export function convert(units: bigint, from: AssetKind, to: AssetKind): bigint {
  if (from === to) return units;
  const scaleFrom = 10n ** BigInt(ASSET_DECIMALS[from]);
  const scaleTo = 10n ** BigInt(ASSET_DECIMALS[to]);
  return from === "ETH"
    ? (units * ETH_PRICE_E8 * scaleTo) / (scaleFrom * 100_000_000n)
    : (units * 100_000_000n * scaleTo) / (scaleFrom * ETH_PRICE_E8);
}

/** `amount` written in asset units (e.g. `"0.0003"` ETH) as base units. */
export function units(amount: string, asset: AssetKind): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  const decimals = ASSET_DECIMALS[asset];
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0"));
}

/** Which asset `address` is on `chainId`, by the address form a provider API uses (`native` or `wrapped`). */
export function assetAt(
  book: AssetBook,
  chainId: number,
  address: string,
  form: "native" | "wrapped",
): AssetKind | undefined {
  const assets = book.get(chainId);
  if (!assets) return undefined;
  for (const kind of ["ETH", "STABLE"] as const) {
    const token = assets[kind];
    if (token && token[form].toLowerCase() === address.toLowerCase()) return kind;
  }
  return undefined;
}

/** `part / whole` as an 18-decimal fixed-point fraction (the `pct` form intent bridges answer). */
export const pctE18 = (part: bigint, whole: bigint) => (whole === 0n ? 0n : (part * 10n ** 18n) / whole);

/** A fee of `bps` on `amount`, rounded up (providers never undercharge). */
export const bpsOf = (amount: bigint, bps: bigint) => (amount * bps + 9_999n) / 10_000n;
