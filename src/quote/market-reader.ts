import { type Address, type Hex, type PublicClient, zeroHash } from "viem";
import type { Contracts } from "../config/deployment.ts";
import type { FollowedSource } from "../liquidity/followed-state/follow-state.ts";
import { fallbackV4Keys, probeV4Keys } from "../liquidity/pool-index/fallback-probe.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import { loadPoolStates, type PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import { StateHints } from "../liquidity/read/state-hints.ts";
import type { Edge } from "../routing/edge.ts";
import { enumeratePaths, type Path } from "../routing/paths.ts";
import { executorHops } from "../routing/to-executor-route.ts";
import { type Misses, watchedEdges, widenPools } from "./widen-pools.ts";

/**
 * Reads what the search needs of pools at a pinned block: their state as edges (pools that fail to load
 * drop out), the executable paths over them, the fallback V4 keys probed when nothing connects, and pools
 * read wider for large trades. Keeps, across quotes, where each pool's price and initialized ticks were
 * (`StateHints`, positions only, one set for first loads and one for widenings), so the next load or
 * widening reads them in its first round. A pool the followed state holds at the block (docs/rules.md, comparison rule 14) is taken
 * from it instead of read: chain state at that named block, exactly what the read would return.
 */
export function createMarketReader(deps: {
  client: PublicClient;
  contracts: Contracts;
  followed?: FollowedSource | undefined;
}) {
  const { client, contracts } = deps;
  const weth = contracts.weth9;
  const hints = new StateHints();
  // Apart from `hints`: a widened pool's ticks far from the price would only weigh on every small quote.
  const widenHints = new StateHints();

  async function loadEdges(
    pools: IndexedPool[],
    block: { number: bigint; hash: Hex },
    misses: Misses,
  ): Promise<{ edges: Edge[]; pools: IndexedPool[] }> {
    const snapshots: (PoolSnapshot | undefined)[] = pools.map((pool) =>
      deps.followed?.snapshotAt(pool, block),
    );
    const unfollowed = pools.filter((_, i) => !snapshots[i]);
    if (unfollowed.length > 0) {
      const { pools: loads } = await loadPoolStates(client, unfollowed, {
        blockNumber: block.number,
        v4PoolManager: contracts.v4PoolManager,
        hints: hints.map,
      });
      hints.record(loads);
      let next = 0;
      snapshots.forEach((snapshot, i) => {
        if (snapshot) return;
        const load = loads[next++]!;
        if (load.status === "loaded") snapshots[i] = load.snapshot;
      });
    }
    const edges: Edge[] = [];
    const usable: IndexedPool[] = [];
    snapshots.forEach((snapshot, i) => {
      if (!snapshot) return;
      usable.push(pools[i]!);
      edges.push(...watchedEdges(pools[i]!, snapshot, misses));
    });
    return { edges, pools: usable };
  }

  /**
   * Edges of the pools the followed state holds at `block`, the others left out, with no node request: for
   * work that must not reach the node (the search warm-up, create-quoter.ts).
   */
  function heldEdges(pools: readonly IndexedPool[], block: { number: bigint; hash: Hex }): Edge[] {
    const misses: Misses = new Map();
    return pools.flatMap((pool) => {
      const snapshot = deps.followed?.snapshotAt(pool, block);
      return snapshot ? watchedEdges(pool, snapshot, misses) : [];
    });
  }

  function executablePaths(edges: Edge[], tokenIn: Address, tokenOut: Address): Path[] {
    return enumeratePaths(edges, tokenIn, tokenOut, weth).filter((path) =>
      executorHops(path, tokenIn, tokenOut, weth),
    );
  }

  /** Undefined on a deployment without V4: there is nothing to probe (docs/rules.md, ours: pool sources). */
  async function probeFallback(
    tokenIn: Address,
    tokenOut: Address,
    blockNumber: bigint,
  ): Promise<{ keys: number; pools: IndexedPool[] } | undefined> {
    const poolManager = contracts.v4PoolManager;
    if (!poolManager) return undefined;
    const asToken = (token: Address) => (BigInt(token) === 0n ? weth : token);
    const keys = fallbackV4Keys(asToken(tokenIn), asToken(tokenOut), weth);
    const found = await probeV4Keys(client, poolManager, keys, blockNumber);
    const pools = found.map(
      ({ key, poolId }): IndexedPool => ({
        kind: "v4",
        poolId,
        key,
        token0: key.currency0,
        token1: key.currency1,
        fee: key.fee,
        tickSpacing: key.tickSpacing,
        discovery: { block: blockNumber, blockHash: zeroHash, via: "probe" },
      }),
    );
    return { keys: keys.length, pools };
  }

  /**
   * The pools of `misses` read `windowTicks` wide at `block` (`widenPools`), with what their earlier
   * widenings saw; a pool the followed state holds that wide is taken from it instead.
   */
  function widen(
    misses: Misses,
    windowTicks: number,
    block: { number: bigint; hash: Hex },
  ): Promise<Map<string, Edge[]>> {
    const { followed } = deps;
    return widenPools(client, misses, {
      v4PoolManager: contracts.v4PoolManager,
      windowTicks,
      hints: widenHints,
      ...(followed ? { held: (pool, words) => followed.snapshotAt(pool, block, words) } : {}),
    });
  }

  return { loadEdges, heldEdges, executablePaths, probeFallback, widen };
}
