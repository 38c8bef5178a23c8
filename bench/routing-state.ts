import { type Address, type PublicClient, parseUnits, zeroAddress } from "viem";
import type { Manifest } from "../src/devnet/manifest.ts";
import { type IndexedPool, isRoutable, poolRef } from "../src/liquidity/pool-index/pool.ts";
import { createPoolIndex, type PoolIndex } from "../src/liquidity/pool-index/pool-index.ts";
import { loadPoolStates, type PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { selectPools } from "../src/quote/select-pools.ts";
import { type Edge, edgesOf } from "../src/routing/edge.ts";
import { enumeratePaths, type Path } from "../src/routing/paths.ts";
import { executorHops } from "../src/routing/to-executor-route.ts";

/** Every routable pool's edges at one pinned block, and the quoter's candidate paths for any pair. */
export type RoutingState = {
  blockNumber: bigint;
  weth: Address;
  index: PoolIndex;
  /** Every loaded edge (both directions of every routable pool). */
  edges: Edge[];
  /** The address of a symbol; `ETH` is native ETH (the zero address). */
  token: (symbol: string) => Address;
  decimals: (symbol: string) => number;
  /** Raw units of a human amount of `symbol`, e.g. `units("USDC", "2.5")`. */
  units: (symbol: string, amount: string) => bigint;
  /**
   * The paths the quoter would search for this pair at this block: `selectPools` within the 96-pool cap,
   * every simple path of up to 3 hops, only those the executor can run (as `createQuoter` does).
   */
  pathsFor: (tokenIn: Address, tokenOut: Address) => Path[];
  /** The snapshot an edge quotes from. */
  snapshotOf: (edge: Edge) => PoolSnapshot;
};

/**
 * Indexes the devnet's pools and loads every routable one at the latest block, once: benchmarks then quote
 * many pairs and amounts against the same snapshots the quoter would read at that block.
 */
export async function loadRoutingState(
  client: PublicClient,
  manifest: Manifest,
  /** Ticks either side of each price to load (the quoter's first window by default). */
  windowTicks?: number,
): Promise<RoutingState> {
  const { contracts } = manifest;
  const index = createPoolIndex({ client, contracts, fromBlock: BigInt(manifest.deploymentBlock) });
  const { to: blockNumber } = await index.sync();
  const pools = index.pools().filter(isRoutable);
  const { pools: loads } = await loadPoolStates(client, pools, {
    blockNumber,
    v4PoolManager: contracts.v4PoolManager,
    ...(windowTicks ? { windowTicks } : {}),
  });
  const byPool = new Map<string, Edge[]>();
  const snapshots = new Map<string, PoolSnapshot>();
  loads.forEach((load, i) => {
    if (load.status !== "loaded") throw new Error(`pool ${poolRef(pools[i]!)} did not load: ${load.reason}`);
    byPool.set(poolRef(pools[i]!), edgesOf(pools[i]!, load.snapshot));
    snapshots.set(poolRef(pools[i]!), load.snapshot);
  });
  const weth = contracts.weth9;
  const tokenOf = (symbol: string) => {
    const found = manifest.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`no token ${symbol} in the devnet manifest`);
    return found;
  };
  const token = (symbol: string) => (symbol === "ETH" ? zeroAddress : (tokenOf(symbol).address as Address));
  const decimals = (symbol: string) => (symbol === "ETH" ? 18 : tokenOf(symbol).decimals);
  return {
    blockNumber,
    weth,
    index,
    edges: [...byPool.values()].flat(),
    token,
    decimals,
    units: (symbol, amount) => parseUnits(amount, decimals(symbol)),
    pathsFor: (tokenIn, tokenOut) => {
      const selected: IndexedPool[] = selectPools(index, tokenIn, tokenOut, weth);
      const edges = selected.flatMap((pool) => byPool.get(poolRef(pool)) ?? []);
      return enumeratePaths(edges, tokenIn, tokenOut, weth).filter((path) =>
        executorHops(path, tokenIn, tokenOut, weth),
      );
    },
    snapshotOf: (edge) => snapshots.get(poolRef(edge.pool))!,
  };
}
