import { DEFAULT_WINDOW_TICKS, type WordRange, wordWindow } from "../read/word-window.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";

/**
 * A followed state as a quote reads it: the words of `words` (by default what a quote reads first, the
 * default window around its price) and nothing beyond them, as a direct read over them would give it, or
 * undefined when the state does not hold them all (the caller reads the pool directly). Copies nothing:
 * the view shares the state's word and tick maps, whose entries beyond its window nothing reads (the swap
 * loop asks for a word only within `bitmap.from..to`, and for a tick only where one of those words has its
 * bit set). A quote over a followed pool therefore sees exactly what it would see over a direct read, and
 * widens it where a direct read would widen.
 */
export function heldView<State extends ConcentratedPoolState>(
  state: State,
  words?: WordRange,
): State | undefined {
  const window = words ?? firstReadWindow(state);
  if (window.from < state.bitmap.from || window.to > state.bitmap.to) return undefined;
  return { ...state, bitmap: { from: window.from, to: window.to, words: state.bitmap.words } };
}

/** The words a quote reads first around the state's price. */
export const firstReadWindow = (state: Pick<ConcentratedPoolState, "tick" | "tickSpacing">): WordRange =>
  wordWindow(state.tick, state.tickSpacing, DEFAULT_WINDOW_TICKS);

/**
 * The state a direct read over its window (or `window`, within it) would give, word for word and tick for
 * tick, in maps of its own: to compare a followed pool with such a read, or to hint a read with its ticks;
 * a quote never needs it. A followed pool's `liquidityGross` stays as it was.
 */
export function narrowed<State extends ConcentratedPoolState>(
  state: State,
  window: WordRange = state.bitmap,
): State {
  const words = new Map<number, bigint>();
  const liquidityNet = new Map<number, bigint>();
  for (let word = window.from; word <= window.to; word++) {
    const value = state.bitmap.words.get(word);
    if (value === undefined) continue;
    words.set(word, value);
    for (const bit of setBits(value)) {
      const tick = (word * 256 + bit) * state.tickSpacing;
      liquidityNet.set(tick, state.liquidityNet.get(tick) ?? 0n);
    }
  }
  return { ...state, bitmap: { from: window.from, to: window.to, words }, liquidityNet };
}

/** The set bits of a word, lowest first. */
function setBits(word: bigint): number[] {
  const binary = word.toString(2);
  const bits: number[] = [];
  for (let i = binary.length - 1; i >= 0; i--)
    if (binary.charCodeAt(i) === 49) bits.push(binary.length - 1 - i);
  return bits;
}
