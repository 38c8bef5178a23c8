import { type Address, zeroAddress } from "viem";
import { type IndexedPool, isRoutable } from "../liquidity/pool-index/pool.ts";
import { assetKey } from "../routing/edge.ts";

/** The routable pools between one asset and another, in the order the source lists them. */
export type NeighborPools = {
  readonly pools: readonly IndexedPool[];
  /** Per pool, its side (token0: 0, token1: 1) that holds the asset they were grouped for. */
  readonly sides: readonly (0 | 1)[];
};

/** An asset's routable pools, grouped by the asset at their other end. */
export type AssetNeighbors = ReadonlyMap<string, NeighborPools>;

type Listed = { weth: string; also: readonly IndexedPool[] | undefined; neighbors: AssetNeighbors };

/**
 * Groupings already made, by the arrays they were made from. Only frozen arrays are keys (the pool index
 * hands out the same frozen array until a pool holding the token changes), so a grouping is never older
 * than its pools, and it goes with them.
 */
const grouped = new WeakMap<readonly IndexedPool[], Map<string, Listed>>();
const NO_NEIGHBORS: AssetNeighbors = new Map();

/**
 * The routable pools holding `asset` (a lowercase address; `weth`, lowercase, stands for WETH and native
 * ETH together, as `assetKey` makes them one asset), grouped by the asset at their other end: a pool's
 * other end is its token1 when its token0 is `asset`, else its token0. A hub's grouping is made once per
 * change of its pools, not once per quote.
 */
export function assetNeighbors(
  source: { poolsOf: (token: Address) => readonly IndexedPool[] },
  asset: string,
  weth: string,
): AssetNeighbors {
  const pools = source.poolsOf(asset as Address);
  const also = asset === weth ? source.poolsOf(zeroAddress) : undefined;
  // A token without pools is not remembered: quotes for unknown tokens leave nothing behind.
  if (pools.length === 0 && !also?.length) return NO_NEIGHBORS;
  if (!Object.isFrozen(pools) || (also && !Object.isFrozen(also))) return group(pools, also, asset, weth);
  let byAsset = grouped.get(pools);
  if (!byAsset) {
    byAsset = new Map();
    grouped.set(pools, byAsset);
  }
  const listed = byAsset.get(asset);
  if (listed && listed.weth === weth && listed.also === also) return listed.neighbors;
  const neighbors = group(pools, also, asset, weth);
  byAsset.set(asset, { weth, also, neighbors });
  return neighbors;
}

function group(
  pools: readonly IndexedPool[],
  also: readonly IndexedPool[] | undefined,
  asset: string,
  weth: string,
): AssetNeighbors {
  // A hub's pools name the same few tokens again and again: each spelling is keyed once.
  const keys = new Map<string, string>();
  const key = (token: Address) => {
    let known = keys.get(token);
    if (known === undefined) {
      known = assetKey(token, weth as Address);
      keys.set(token, known);
    }
    return known;
  };
  const byOther = new Map<string, { pools: IndexedPool[]; sides: (0 | 1)[] }>();
  for (const list of also ? [pools, also] : [pools]) {
    for (let i = 0; i < list.length; i++) {
      const pool = list[i]!;
      if (!isRoutable(pool)) continue;
      const first = key(pool.token0);
      const side = first === asset ? 0 : 1;
      const other = side === 0 ? key(pool.token1) : first;
      let neighbor = byOther.get(other);
      if (!neighbor) {
        neighbor = { pools: [], sides: [] };
        byOther.set(other, neighbor);
      }
      neighbor.pools.push(pool);
      neighbor.sides.push(side);
    }
  }
  return byOther;
}
