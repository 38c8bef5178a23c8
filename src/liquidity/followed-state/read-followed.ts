import type { Address, PublicClient } from "viem";
import type { IndexedPool } from "../pool-index/pool.ts";
import { kindOf } from "../pool-kinds.ts";
import { loadPoolStates, type PoolSnapshot } from "../read/load-pool-states.ts";
import type { Read } from "../read/read.ts";
import { DEPLOYLESS_LIMITS, runReads } from "../read/run-reads.ts";
import { DEFAULT_WINDOW_TICKS, WIDENED_WINDOW_TICKS } from "../read/word-window.ts";

/**
 * Ticks either side of the price a followed pool of `tickSpacing` holds, in whole bitmap words: what a large
 * trade's widened read covers (the first window, the word past it and WIDENED_WINDOW_TICKS beyond) and
 * one more first window, so widening a followed pool reads nothing and the price can move a window before
 * the pool has to be read again.
 */
export function heldWindowTicks(tickSpacing: number): number {
  const words = (ticks: number) => Math.max(1, Math.ceil(ticks / (256 * tickSpacing)));
  return (2 * words(DEFAULT_WINDOW_TICKS) + 1 + words(WIDENED_WINDOW_TICKS)) * 256 * tickSpacing;
}

/**
 * Reads pools directly at `blockNumber` into followed states: the swap state a quote reads (over the held
 * window) through `loadPoolStates`, then, in one more round, each initialized tick's gross liquidity,
 * which decides when a burn clears a tick. A pool that fails to load is absent from the answer.
 */
export async function readFollowed(
  client: Pick<PublicClient, "call" | "readContract">,
  pools: readonly IndexedPool[],
  blockNumber: bigint,
  poolManager: Address | undefined,
): Promise<Map<IndexedPool, PoolSnapshot>> {
  // One load per tick spacing (each held its own width), all sent together.
  const spacings = [...new Set(pools.map(spacingOf))];
  const loaded = await Promise.all(
    spacings.map((spacing) =>
      loadPoolStates(
        client,
        pools.filter((pool) => spacingOf(pool) === spacing),
        {
          blockNumber,
          ...(poolManager ? { v4PoolManager: poolManager } : {}),
          ...(spacing > 0 ? { windowTicks: heldWindowTicks(spacing) } : {}),
        },
      ),
    ),
  );
  const bySpacing = new Map(spacings.map((spacing, i) => [spacing, loaded[i]!.pools[Symbol.iterator]()]));
  const loads = pools.map((pool) => bySpacing.get(spacingOf(pool))!.next().value!);
  const grossReads: { pool: number; tick: number; read: Read<unknown> }[] = [];
  loads.forEach((load, i) => {
    if (load.status !== "loaded") return;
    for (const { tick, read } of kindOf(pools[i]!).grossReads(pools[i]!, load.snapshot, poolManager))
      grossReads.push({ pool: i, tick, read });
  });
  const outcomes = await runReads(
    {
      client,
      blockNumber,
      limits: DEPLOYLESS_LIMITS,
      stats: { roundTrips: 0, requests: 0, calls: 0, slots: 0 },
    },
    grossReads.map(({ read }) => read),
  );
  const gross = new Map<number, Map<number, bigint>>();
  const failed = new Set<number>();
  grossReads.forEach(({ pool, tick }, i) => {
    const outcome = outcomes[i]!;
    if (!outcome.ok) failed.add(pool);
    else {
      if (!gross.has(pool)) gross.set(pool, new Map());
      gross.get(pool)!.set(tick, outcome.value as bigint);
    }
  });
  const followed = new Map<IndexedPool, PoolSnapshot>();
  loads.forEach((load, i) => {
    if (load.status !== "loaded" || failed.has(i)) return;
    followed.set(pools[i]!, kindOf(load.snapshot).followedOf(load.snapshot, gross.get(i)));
  });
  return followed;
}

/** A concentrated pool's tick spacing, which sizes its held window; 0 for a kind without ticks (V2). */
function spacingOf(pool: IndexedPool): number {
  return "tickSpacing" in pool ? pool.tickSpacing : 0;
}
