import type { Hex } from "viem";
import type { IndexedPool } from "../pool-index/pool.ts";
import type { PoolSnapshot } from "../read/load-pool-states.ts";
import { DEFAULT_WINDOW_TICKS, type WordRange, wordWindow } from "../read/word-window.ts";

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

export type FollowedV2 = { kind: "v2"; reserve0: bigint; reserve1: bigint };

/** One pool's state after some block: immutable, replaced whole when a block changes it. */
export type FollowedPool = FollowedV2 | FollowedConcentrated;

/**
 * The snapshot a direct read at `blockNumber` over `words` would give (by default the default window
 * around the price, as a quote's first read), word for word and tick for tick, or undefined when those
 * words reach past the held ones (the caller reads the pool directly).
 */
export function snapshotOf(
  pool: IndexedPool,
  state: FollowedPool,
  blockNumber: bigint,
  words?: WordRange,
): PoolSnapshot | undefined {
  if (state.kind === "v2") {
    if (pool.kind !== "v2") return undefined;
    return {
      kind: "v2",
      address: pool.address,
      blockNumber,
      reserve0: state.reserve0,
      reserve1: state.reserve1,
    };
  }
  const window = words ?? wordWindow(state.tick, state.tickSpacing, DEFAULT_WINDOW_TICKS);
  if (window.from < state.held.from || window.to > state.held.to) return undefined;
  const set = new Map<number, bigint>();
  const liquidityNet = new Map<number, bigint>();
  for (let word = window.from; word <= window.to; word++) {
    const value = state.words.get(word);
    if (value === undefined) continue;
    set.set(word, value);
    for (const bit of setBits(value)) {
      const tick = (word * 256 + bit) * state.tickSpacing;
      liquidityNet.set(tick, state.ticks.get(tick)?.net ?? 0n);
    }
  }
  const common = {
    sqrtPriceX96: state.sqrtPriceX96,
    tick: state.tick,
    liquidity: state.liquidity,
    tickSpacing: state.tickSpacing,
    bitmap: { from: window.from, to: window.to, words: set },
    liquidityNet,
    blockNumber,
  };
  if (pool.kind === "v3" && state.kind === "v3")
    return { ...common, kind: "v3", address: pool.address, fee: state.fee };
  if (pool.kind === "v4" && state.kind === "v4")
    return {
      ...common,
      kind: "v4",
      poolId: pool.poolId as Hex,
      lpFee: state.fee,
      protocolFee: state.protocolFee,
    };
  return undefined;
}

/** The set bits of a word, lowest first. */
export function setBits(word: bigint): number[] {
  const binary = word.toString(2);
  const bits: number[] = [];
  for (let i = binary.length - 1; i >= 0; i--)
    if (binary.charCodeAt(i) === 49) bits.push(binary.length - 1 - i);
  return bits;
}
