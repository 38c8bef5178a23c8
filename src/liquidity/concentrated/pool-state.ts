/**
 * What the V3/V4 swap loop reads from a concentrated-liquidity pool, as loaded at one pinned block, and
 * what the head follower holds of it after a block: one shape for both. A followed pool is this state read
 * over a wider window, with `liquidityGross` beside it; a quote reads it through a view over its own window
 * (`heldView`) that shares the followed maps.
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
  /**
   * liquidityNet (int128) of initialized ticks that were read, by tick: every set bit of the window's (a
   * view's map may hold more, beyond its window, which nothing reads).
   */
  liquidityNet: ReadonlyMap<number, bigint>;
  /**
   * A followed pool's: liquidityGross (uint128) of the same ticks, which decides when a burn clears a tick
   * (its bit flips when gross leaves or reaches zero). A quote never reads it; a direct read has none.
   */
  liquidityGross?: ReadonlyMap<number, bigint>;
};

/** A contiguous range of tick-bitmap words read at the snapshot's block. */
export type BitmapWindow = {
  /** Every word position in [from, to] was read. */
  from: number;
  to: number;
  /**
   * The non-zero words among them; a position in range but absent here is an empty word. A view of a
   * followed pool shares the held map, whose words beyond [from, to] nothing reads.
   */
  words: ReadonlyMap<number, bigint>;
};

/** The state a swap needed but the snapshot does not hold: load it at the same block and retry. */
export type MissingState = { kind: "bitmapWord"; wordPos: number } | { kind: "tick"; tick: number };

/** The moving part of a swap: where the price is and which liquidity is in range. */
export type SwapCursor = { sqrtPriceX96: bigint; tick: number; liquidity: bigint };
