import { type Address, zeroAddress } from "viem";
import { type IndexedPool, isRoutable, poolRef } from "../liquidity/pool-index/pool.ts";
import { assetKey } from "../routing/edge.ts";
import { QUOTE_LIMITS } from "./limits.ts";

export type PoolSource = {
  poolsOf: (token: Address) => IndexedPool[];
  poolCountOf: (token: Address) => number;
};

/**
 * The routable pools a search over (tokenIn → tokenOut) may use, at most `cap` (docs/rules.md, limits: 96),
 * in priority order: direct pools; the WETH↔tokenOut pools the gas conversion reads; two-hop connectors; then
 * three-hop connectors. Intermediate tokens are ranked by how many pools hold them, so the best-connected
 * hubs are kept when the cap bites. Native ETH and WETH count as one asset.
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
  const take = (pools: readonly IndexedPool[] | undefined) => {
    for (const pool of pools ?? []) if (!full()) chosen.set(poolRef(pool), pool);
  };

  take(fromA.get(b));
  if (b !== w) take(toB.get(w));
  const byHub = (assets: Iterable<string>) =>
    [...assets].sort((x, y) => degree(y) - degree(x) || (x < y ? -1 : 1));
  const middles = byHub([...fromA.keys()].filter((m) => m !== b && toB.has(m)));
  for (const m of middles) {
    if (full()) break;
    take(fromA.get(m));
    take(toB.get(m));
  }
  // Three hops: each first hop's neighbours are gathered once, the last hops sorted once, and the walk
  // ends as soon as the cap is reached (nothing after it could be taken), so a hub pair with hundreds of
  // connectors costs what filling the cap costs, not first hops times last hops.
  const lastHops = byHub([...toB.keys()].filter((m) => m !== a));
  for (const m1 of byHub([...fromA.keys()].filter((m) => m !== b))) {
    if (full()) break;
    const fromM1 = neighbors(m1);
    for (const m2 of lastHops) {
      if (full()) break;
      if (m2 === m1) continue;
      const links = fromM1.get(m2);
      if (!links) continue;
      take(fromA.get(m1));
      take(links);
      take(toB.get(m2));
    }
  }
  return [...chosen.values()];
}
