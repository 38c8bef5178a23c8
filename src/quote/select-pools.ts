import { type Address, zeroAddress } from "viem";
import { type IndexedPool, isRoutable, poolRef } from "../liquidity/pool-index/pool.ts";
import { assetKey } from "../routing/edge.ts";
import { QUOTE_LIMITS } from "./limits.ts";

/** WETH↔tokenOut pools kept for the gas conversion when depths rank them (the deepest); all without. */
const CONVERSION_POOLS = 2;

export type PoolSource = {
  poolsOf: (token: Address) => readonly IndexedPool[];
  poolCountOf: (token: Address) => number;
  /**
   * How much of its token0 (side 0) or token1 (side 1) a pool holds, when known (followed state): the
   * connectors are then ranked by depth, not by how many pools hold them.
   */
  depthOf?: (pool: IndexedPool, side: 0 | 1) => number | undefined;
};

/**
 * The routable pools a search over (tokenIn → tokenOut) may use, at most `cap` (docs/rules.md, limits: 96),
 * in priority order: direct pools; the WETH↔tokenOut pools the gas conversion reads; two-hop connectors; then
 * three-hop connectors. When the cap bites, what is kept is what is deepest: with pool depths known
 * (`depthOf`), a two-hop connector ranks by the lesser of its two sides' depth (each side's deepest pool,
 * as a share of the deepest connector's side), a three-hop one's first and last hops by their own side, and
 * each connector's pools deepest first; without them, intermediate tokens rank by how many pools hold them
 * (the best-connected hubs). Native ETH and WETH count as one asset.
 */
export function selectPools(
  source: PoolSource,
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
  cap: number = QUOTE_LIMITS.maxPools,
): IndexedPool[] {
  const key = (token: Address) => assetKey(token, weth);
  const poolsOfAsset = (asset: string) => {
    const pools = source.poolsOf(asset as Address);
    return asset === weth.toLowerCase() ? [...pools, ...source.poolsOf(zeroAddress)] : pools;
  };
  const otherSide = (pool: IndexedPool, asset: string) =>
    key(pool.token0) === asset ? key(pool.token1) : key(pool.token0);
  const neighbors = (asset: string) => {
    const byAsset = new Map<string, IndexedPool[]>();
    for (const pool of poolsOfAsset(asset)) {
      if (!isRoutable(pool)) continue;
      const other = otherSide(pool, asset);
      if (!byAsset.has(other)) byAsset.set(other, []);
      byAsset.get(other)!.push(pool);
    }
    return byAsset;
  };
  // How many pools hold an asset, counted once per call: the hub order sorts by it again and again.
  const degrees = new Map<string, number>();
  const degree = (asset: string) => {
    let count = degrees.get(asset);
    if (count === undefined) {
      count =
        source.poolCountOf(asset as Address) +
        (asset === weth.toLowerCase() ? source.poolCountOf(zeroAddress) : 0);
      degrees.set(asset, count);
    }
    return count;
  };

  const [a, b, w] = [key(tokenIn), key(tokenOut), weth.toLowerCase()];
  const fromA = neighbors(a);
  const toB = neighbors(b);
  const chosen = new Map<string, IndexedPool>();
  const full = () => chosen.size >= cap;
  const { depthOf } = source;
  // Each pool's depths and each connector's pools in depth order are worked out once per selection: the
  // three-hop walk asks for the same ones again and again.
  const depths = new Map<IndexedPool, { asset0: string; side: [number, number] }>();
  const depth = (pool: IndexedPool, asset: string) => {
    let known = depths.get(pool);
    if (!known) {
      known = { asset0: key(pool.token0), side: [depthOf?.(pool, 0) ?? 0, depthOf?.(pool, 1) ?? 0] };
      depths.set(pool, known);
    }
    return known.side[known.asset0 === asset ? 0 : 1];
  };
  const sorted = new Map<readonly IndexedPool[], readonly IndexedPool[]>();
  /**
   * How much of `asset` the deepest of the pools holds (unknown depths count nothing): a route's branch
   * goes through one pool a hop, so a connector is as good as its deepest pool, not as its pools together.
   */
  const held = (pools: readonly IndexedPool[] | undefined, asset: string) =>
    (pools ?? []).reduce((most, pool) => Math.max(most, depth(pool, asset)), 0);
  /** `pools`, deepest in `asset` first when depths are known. */
  const deepest = (pools: readonly IndexedPool[] | undefined, asset: string) => {
    if (!depthOf || !pools || pools.length < 2) return pools;
    let order = sorted.get(pools);
    if (!order) {
      order = [...pools].sort((x, y) => depth(y, asset) - depth(x, asset));
      sorted.set(pools, order);
    }
    return order;
  };
  const take = (pools: readonly IndexedPool[] | undefined) => {
    for (const pool of pools ?? []) if (!full()) chosen.set(poolRef(pool), pool);
  };

  take(deepest(fromA.get(b), a));
  // The gas conversion reads one WETH↔tokenOut pool's price: with depths known, the deepest few serve it.
  if (b !== w) take(depthOf ? deepest(toB.get(w), b)?.slice(0, CONVERSION_POOLS) : toB.get(w));
  const byHub = (assets: Iterable<string>) =>
    [...assets].sort((x, y) => degree(y) - degree(x) || (x < y ? -1 : 1));
  /** Assets ranked by `score` (highest first), ties by how many pools hold them. */
  const byScore = (assets: Iterable<string>, score: (asset: string) => number) => {
    const scores = new Map([...assets].map((asset) => [asset, score(asset)]));
    return byHub(scores.keys()).sort((x, y) => scores.get(y)! - scores.get(x)!);
  };
  const twoHop = [...fromA.keys()].filter((m) => m !== b && toB.has(m));
  let middles = byHub(twoHop);
  if (depthOf) {
    const sideA = new Map(twoHop.map((m) => [m, held(fromA.get(m), a)]));
    const sideB = new Map(twoHop.map((m) => [m, held(toB.get(m), b)]));
    const [maxA, maxB] = [Math.max(0, ...sideA.values()), Math.max(0, ...sideB.values())];
    const share = (value: number, max: number) => (max > 0 ? value / max : 0);
    middles = byScore(twoHop, (m) => Math.min(share(sideA.get(m)!, maxA), share(sideB.get(m)!, maxB)));
  }
  for (const m of middles) {
    if (full()) break;
    take(deepest(fromA.get(m), a));
    take(deepest(toB.get(m), b));
  }
  // Three hops: each first hop's neighbours are gathered once, the last hops sorted once, and the walk
  // ends as soon as the cap is reached (nothing after it could be taken), so a hub pair with hundreds of
  // connectors costs what filling the cap costs, not first hops times last hops.
  const lastHopAssets = [...toB.keys()].filter((m) => m !== a);
  const firstHopAssets = [...fromA.keys()].filter((m) => m !== b);
  const lastHops = depthOf ? byScore(lastHopAssets, (m) => held(toB.get(m), b)) : byHub(lastHopAssets);
  const firstHops = depthOf ? byScore(firstHopAssets, (m) => held(fromA.get(m), a)) : byHub(firstHopAssets);
  for (const m1 of firstHops) {
    if (full()) break;
    const fromM1 = neighbors(m1);
    for (const m2 of lastHops) {
      if (full()) break;
      if (m2 === m1) continue;
      const links = fromM1.get(m2);
      if (!links) continue;
      take(deepest(fromA.get(m1), a));
      take(deepest(links, m1));
      take(deepest(toB.get(m2), b));
    }
  }
  return [...chosen.values()];
}
