/**
 * What the V3/V4 swap loop reads from a concentrated-liquidity pool, as loaded at one pinned block.
 *
 * The bitmap and the ticks are partial by nature: only a window of words around the price (and the ticks
 * those words reveal) is read. A word outside the window was not read, which is different from a zero
 * word; a set bit whose tick is absent from `liquidityNet` was not read either. The swap loop refuses to
 * guess about either (see `MissingState`).
 */
export type ConcentratedPoolState = {
  sqrtPriceX96: bigint;
  /** slot0's tick, as stored: after a swap ending on a boundary it can be one below the price's tick. */
  tick: number;
  /** In-range liquidity (uint128). */
  liquidity: bigint;
  tickSpacing: number;
  bitmap: BitmapWindow;
  /** liquidityNet (int128) of initialized ticks that were read, by tick. */
  liquidityNet: ReadonlyMap<number, bigint>;
};

/** A contiguous range of tick-bitmap words read at the snapshot's block. */
export type BitmapWindow = {
  /** Every word position in [from, to] was read. */
  from: number;
  to: number;
  /** The non-zero words among them; a position in range but absent here is an empty word. */
  words: ReadonlyMap<number, bigint>;
};

/** The state a swap needed but the snapshot does not hold: load it at the same block and retry. */
export type MissingState = { kind: "bitmapWord"; wordPos: number } | { kind: "tick"; tick: number };

/** The moving part of a swap: where the price is and which liquidity is in range. */
export type SwapCursor = { sqrtPriceX96: bigint; tick: number; liquidity: bigint };
