import { kindOf } from "../pool-kinds.ts";
import type { PoolSnapshot } from "../read/load-pool-states.ts";
import type { WordRange } from "../read/word-window.ts";

/**
 * A followed pool's state as a quote at `blockNumber` reads it: over `words` (by default what a quote reads
 * first around its price), exactly what a direct read at that block would give, or undefined when those
 * words reach past the held ones (the caller reads the pool directly). It shares the followed state's maps:
 * nothing but its top level is copied.
 */
export function snapshotOf(
  state: PoolSnapshot,
  blockNumber: bigint,
  words?: WordRange,
): PoolSnapshot | undefined {
  const kind = kindOf(state);
  const view = kind.heldView ? kind.heldView(state, words) : state;
  return view && (view.blockNumber === blockNumber ? view : { ...view, blockNumber });
}

/** Whether a followed state no longer holds what a quote reads first (its price left the held words). */
export function outgrown(state: PoolSnapshot): boolean {
  const kind = kindOf(state);
  return kind.heldView !== undefined && kind.heldView(state) === undefined;
}
