import { DEFAULT_WINDOW_TICKS, type WordRange, wordWindow } from "../read/word-window.ts";
import type { FollowedConcentrated } from "./followed.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * The swap state a direct read at `blockNumber` over `words` would give (by default the default window
 * around the price, as a quote's first read), word for word and tick for tick, or undefined when those
 * words reach past the held ones (the caller reads the pool directly). The kind adds its identity and fees.
 */
export function heldSnapshot(
  state: FollowedConcentrated,
  blockNumber: bigint,
  words?: WordRange,
): (ConcentratedPoolState & { blockNumber: bigint }) | undefined {
  const window = words ?? firstReadWindow(state);
  if (!holds(state, window)) return undefined;
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
  return {
    sqrtPriceX96: state.sqrtPriceX96,
    tick: state.tick,
    liquidity: state.liquidity,
    tickSpacing: state.tickSpacing,
    bitmap: { from: window.from, to: window.to, words: set },
    liquidityNet,
    blockNumber,
  };
}

/** The set bits of a word, lowest first. */
export function setBits(word: bigint): number[] {
  const binary = word.toString(2);
  const bits: number[] = [];
  for (let i = binary.length - 1; i >= 0; i--)
    if (binary.charCodeAt(i) === 49) bits.push(binary.length - 1 - i);
  return bits;
}

/**
 * Whether the held words no longer cover what a quote reads first around the price (the default window):
 * the price moved out, and the pool is read anew around it before a quote has to read it itself.
 */
export function outgrown(state: FollowedConcentrated): boolean {
  return !holds(state, firstReadWindow(state));
}

const firstReadWindow = (state: FollowedConcentrated): WordRange =>
  wordWindow(state.tick, state.tickSpacing, DEFAULT_WINDOW_TICKS);

const holds = (state: FollowedConcentrated, window: WordRange): boolean =>
  window.from >= state.held.from && window.to <= state.held.to;
