import type { FollowedConcentrated } from "../concentrated/followed.ts";
import { kindOf } from "../pool-kinds.ts";
import type { PoolRef, PoolSnapshot } from "../read/load-pool-states.ts";
import type { WordRange } from "../read/word-window.ts";
import type { FollowedV2 } from "../v2/followed.ts";

/** One pool's state after some block: immutable, replaced whole when a block changes it. */
export type FollowedPool = FollowedV2 | FollowedConcentrated;

/**
 * The snapshot a direct read at `blockNumber` over `words` would give (by default the default window
 * around the price, as a quote's first read), word for word and tick for tick, or undefined when those
 * words reach past the held ones (the caller reads the pool directly) or the state is of another kind.
 */
export function snapshotOf(
  pool: PoolRef,
  state: FollowedPool,
  blockNumber: bigint,
  words?: WordRange,
): PoolSnapshot | undefined {
  if (pool.kind !== state.kind) return undefined;
  return kindOf(pool).snapshotOf(pool, state, blockNumber, words);
}
