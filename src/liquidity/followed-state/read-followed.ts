import { type Address, type Hex, hexToBigInt, maxUint128, type PublicClient } from "viem";
import type { IndexedPool } from "../pool-index/pool.ts";
import { loadPoolStates } from "../read/load-pool-states.ts";
import type { Read } from "../read/read.ts";
import { DEPLOYLESS_LIMITS, runReads } from "../read/run-reads.ts";
import { DEFAULT_WINDOW_TICKS, WIDENED_WINDOW_TICKS } from "../read/word-window.ts";
import { v3Reads } from "../v3/read-state.ts";
import { v4Reads } from "../v4/read-state.ts";
import type { FollowedPool, TickLiquidity } from "./followed-pool.ts";

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
): Promise<Map<IndexedPool, FollowedPool>> {
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
    if (load.status !== "loaded" || load.snapshot.kind === "v2") return;
    for (const tick of load.snapshot.liquidityNet.keys())
      grossReads.push({ pool: i, tick, read: grossRead(pools[i]!, tick, poolManager!) });
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
  const followed = new Map<IndexedPool, FollowedPool>();
  loads.forEach((load, i) => {
    if (load.status !== "loaded" || failed.has(i)) return;
    const s = load.snapshot;
    if (s.kind === "v2") {
      followed.set(pools[i]!, { kind: "v2", reserve0: s.reserve0, reserve1: s.reserve1 });
      return;
    }
    const ticks = new Map<number, TickLiquidity>();
    for (const [tick, net] of s.liquidityNet) ticks.set(tick, { gross: gross.get(i)?.get(tick) ?? 0n, net });
    followed.set(pools[i]!, {
      kind: s.kind,
      sqrtPriceX96: s.sqrtPriceX96,
      tick: s.tick,
      liquidity: s.liquidity,
      tickSpacing: s.tickSpacing,
      held: { from: s.bitmap.from, to: s.bitmap.to },
      words: s.bitmap.words,
      ticks,
      fee: s.kind === "v3" ? s.fee : s.lpFee,
      protocolFee: s.kind === "v3" ? 0 : s.protocolFee,
    });
  });
  return followed;
}

/** A concentrated pool's tick spacing; 0 for a V2 pair. */
function spacingOf(pool: IndexedPool): number {
  return pool.kind === "v2" ? 0 : pool.tickSpacing;
}

/** A tick's gross liquidity: V3 `ticks(tick)`'s first word, V4 the low 128 bits of the tick's first slot. */
function grossRead(pool: IndexedPool, tick: number, poolManager: Address): Read<unknown> {
  if (pool.kind === "v3") {
    const read = v3Reads.liquidityNet(pool.address, tick);
    if (read.kind === "view") return { ...read, words: [0], decode: (words: readonly bigint[]) => words[0]! };
  }
  if (pool.kind === "v4") {
    const read = v4Reads.liquidityNet(poolManager, pool.poolId, tick);
    if (read.kind === "slot") return { ...read, decode: (value: Hex) => hexToBigInt(value) & maxUint128 };
  }
  throw new RangeError("a V2 pair has no ticks");
}
