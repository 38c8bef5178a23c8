import type { WordRange } from "../read/word-window.ts";

/** An initialized tick's liquidity: gross decides when its bitmap bit flips, net what crossing it does. */
export type TickLiquidity = { gross: bigint; net: bigint };

/**
 * A followed concentrated pool: what a read at its block would return, over a window of bitmap words wider
 * than the one a quote reads (`held`), so the price can move before the pool has to be read again. Every
 * initialized tick of `held` is in `ticks`; a word outside `held` is unknown, never empty.
 */
export type FollowedConcentrated = {
  kind: "v3" | "v4";
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  tickSpacing: number;
  held: WordRange;
  /** The non-zero bitmap words of `held`. */
  words: ReadonlyMap<number, bigint>;
  ticks: ReadonlyMap<number, TickLiquidity>;
  /** V3: the pool's fee in pips. V4: slot0's LP fee. */
  fee: number;
  /** V4 only: slot0's packed protocol fee (V3's comes out of the fee, not on top). */
  protocolFee: number;
};
