import type { Address, PublicClient } from "viem";
import type { MissingState } from "../liquidity/concentrated/pool-state.ts";
import { type IndexedPool, poolRef } from "../liquidity/pool-index/pool.ts";
import { extendPoolStates, type PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import type { StateHints } from "../liquidity/read/state-hints.ts";
import { extendedWindow, type WordRange } from "../liquidity/read/word-window.ts";
import type { V3PoolSnapshot } from "../liquidity/v3/snapshot.ts";
import type { V4PoolSnapshot } from "../liquidity/v4/snapshot.ts";
import { type Edge, edgesOf } from "../routing/edge.ts";

/** A concentrated pool whose quote needed state its snapshot did not load, and what it needed. */
export type Miss = { pool: IndexedPool; snapshot: V3PoolSnapshot | V4PoolSnapshot; missing: MissingState };

/** Concentrated pools found short of loaded ticks during a search, by pool (the first miss of each). */
export type Misses = Map<string, Miss>;

/** A pool's edges over its snapshot, each quote that runs past the loaded ticks recorded in `misses`. */
export function watchedEdges(pool: IndexedPool, snapshot: PoolSnapshot, misses: Misses): Edge[] {
  if (snapshot.kind === "v2") return edgesOf(pool, snapshot);
  const ref = poolRef(pool);
  return edgesOf(pool, snapshot, (missing) => {
    if (!misses.has(ref)) misses.set(ref, { pool, snapshot, missing });
  });
}

/**
 * Reads the pools of `misses` `windowTicks` past their price at their snapshots' block (or takes them from
 * followed state, `held`) and returns their new edges by pool (still watched). `hints` (what earlier widenings of the same pools saw, positions only)
 * lets their ticks be read with the words, in one round trip instead of two; the loads are recorded in it. A pool that cannot be read wider is left out: it keeps its edges, and its
 * large quotes stay unusable, never guessed.
 */
export async function widenPools(
  client: PublicClient,
  misses: Misses,
  options: {
    v4PoolManager: Address | undefined;
    windowTicks: number;
    hints?: StateHints;
    /**
     * The pool over those words at the misses' block from state that follows the chain (docs/rules.md,
     * comparison rule 14), when it holds them: such a pool is not read.
     */
    held?: (pool: IndexedPool, words: WordRange) => PoolSnapshot | undefined;
  },
): Promise<Map<string, Edge[]>> {
  const { hints, held, ...extend } = options;
  const widened = new Map<string, Edge[]>();
  const requests: Miss[] = [];
  for (const miss of misses.values()) {
    const { pool, snapshot, missing } = miss;
    const words =
      missing.kind === "bitmapWord"
        ? extendedWindow(snapshot.bitmap, missing.wordPos, extend.windowTicks, snapshot.tickSpacing)
        : undefined;
    const known = words && held?.(pool, words);
    if (known) widened.set(poolRef(pool), watchedEdges(pool, known, misses));
    else requests.push(miss);
  }
  if (requests.length === 0) return widened;
  const { pools: loads } = await extendPoolStates(client, requests, {
    ...extend,
    ...(hints ? { hints: hints.map } : {}),
  });
  hints?.record(loads);
  loads.forEach((load, i) => {
    if (load.status !== "loaded") return;
    const { pool } = requests[i]!;
    widened.set(poolRef(pool), watchedEdges(pool, load.snapshot, misses));
  });
  return widened;
}
