import { type Address, zeroAddress } from "viem";
import { type IndexedPool, poolRef } from "../liquidity/pool-index/pool.ts";
import { assetKey } from "../routing/edge.ts";
import { type AssetNeighbors, assetNeighbors, type NeighborPools } from "./asset-neighbors.ts";
import { QUOTE_LIMITS } from "./limits.ts";

/** WETH↔tokenOut pools kept for the gas conversion when depths rank them (the deepest); all without. */
const CONVERSION_POOLS = 2;

export type PoolSource = {
  /** A token's pools; a frozen array the source hands out again until they change is grouped only once. */
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
 *
 * Its cost grows with the pools holding the pair's tokens (whose depths it reads), not with the index: a
 * token's pools are grouped by their other token once per change of them (asset-neighbors.ts), only what
 * ranks the connectors is sorted, and the walk stops when the cap is reached.
 */
export function selectPools(
  source: PoolSource,
  tokenIn: Address,
  tokenOut: Address,
  weth: Address,
  cap: number = QUOTE_LIMITS.maxPools,
): IndexedPool[] {
  const w = weth.toLowerCase();
  const [a, b] = [assetKey(tokenIn, weth), assetKey(tokenOut, weth)];
  const walk: Walk = {
    a,
    b,
    w,
    fromA: assetNeighbors(source, a, w),
    toB: assetNeighbors(source, b, w),
    neighbors: (asset) => assetNeighbors(source, asset, w),
    degree: degrees(source, w),
    depths: source.depthOf && groupDepths(source.depthOf),
    chosen: chosenPools(cap),
  };
  takeDirectAndConversion(walk);
  takeTwoHop(walk);
  takeThreeHop(walk);
  return walk.chosen.pools();
}

type Walk = {
  a: string;
  b: string;
  w: string;
  fromA: AssetNeighbors;
  toB: AssetNeighbors;
  neighbors: (asset: string) => AssetNeighbors;
  degree: (asset: string) => number;
  depths: GroupDepths | undefined;
  chosen: ChosenPools;
};

function takeDirectAndConversion({ b, w, fromA, toB, depths, chosen }: Walk): void {
  chosen.take(fromA.get(b), depths);
  // The gas conversion reads one WETH↔tokenOut pool's price: with depths known, the deepest few serve it.
  const conversion = b !== w ? toB.get(w) : undefined;
  if (conversion)
    chosen.takeSome(depths ? depths.deepest(conversion).slice(0, CONVERSION_POOLS) : conversion.pools);
}

/** A connector: an intermediate asset, ranked by `score` (with depths known), then in hub order. */
type Connector = { asset: string; degree: number; score: number };

function takeTwoHop({ b, fromA, toB, degree, depths, chosen }: Walk): void {
  if (chosen.full()) return;
  const middles: (Connector & { viaA: NeighborPools; viaB: NeighborPools })[] = [];
  fromA.forEach((viaA, m) => {
    const viaB = toB.get(m);
    if (m !== b && viaB) middles.push({ asset: m, degree: degree(m), score: 0, viaA, viaB });
  });
  if (depths) {
    const sideA = middles.map(({ viaA }) => depths.held(viaA));
    const sideB = middles.map(({ viaB }) => depths.held(viaB));
    const [maxA, maxB] = [sideA.reduce(larger, 0), sideB.reduce(larger, 0)];
    const share = (value: number, max: number) => (max > 0 ? value / max : 0);
    middles.forEach((middle, i) => {
      middle.score = Math.min(share(sideA[i]!, maxA), share(sideB[i]!, maxB));
    });
  }
  middles.sort(depths ? scoreOrder : hubOrder);
  for (let i = 0; i < middles.length && !chosen.full(); i++) {
    chosen.take(middles[i]!.viaA, depths);
    chosen.take(middles[i]!.viaB, depths);
  }
}

/**
 * Three hops: first hops against last hops in rank order, ending as soon as the cap is reached: a hub pair
 * with hundreds of connectors costs what filling the cap costs, not first hops times last hops.
 */
function takeThreeHop({ a, b, fromA, toB, neighbors, degree, depths, chosen }: Walk): void {
  if (chosen.full()) return;
  /** The assets at the other end of `side`'s groups but `except`, best first. */
  const ranked = (side: AssetNeighbors, except: string) => {
    const connectors: Connector[] = [];
    side.forEach((group, m) => {
      if (m !== except) connectors.push({ asset: m, degree: degree(m), score: depths?.held(group) ?? 0 });
    });
    return connectors.sort(depths ? scoreOrder : hubOrder).map(({ asset }) => asset);
  };
  const lastHops = ranked(toB, a);
  const firstHops = ranked(fromA, b);
  const lastRank = new Map(lastHops.map((m, i) => [m, i]));
  for (let i = 0; i < firstHops.length && !chosen.full(); i++) {
    const m1 = firstHops[i]!;
    const fromM1 = neighbors(m1);
    const linked = linkedLastHops(fromM1, lastHops, lastRank);
    for (let j = 0; j < linked.length && !chosen.full(); j++) {
      const m2 = linked[j]!;
      if (m2 === m1) continue;
      chosen.take(fromA.get(m1), depths);
      chosen.take(fromM1.get(m2), depths);
      chosen.take(toB.get(m2), depths);
    }
  }
}

/**
 * The last hops `fromM1` has pools to, in their rank order: matched from whichever of the two is shorter
 * (a tail's few neighbours against a hub's hundreds of last hops, or the other way).
 */
function linkedLastHops(fromM1: AssetNeighbors, lastHops: string[], lastRank: Map<string, number>): string[] {
  if (fromM1.size >= lastHops.length) return lastHops.filter((m2) => fromM1.has(m2));
  const linked: string[] = [];
  fromM1.forEach((_, m2) => {
    if (lastRank.has(m2)) linked.push(m2);
  });
  return linked.sort((x, y) => lastRank.get(x)! - lastRank.get(y)!);
}

const larger = (x: number, y: number) => Math.max(x, y);
/** The best-connected hubs first: by how many pools hold them, then by address. */
const hubOrder = (x: Connector, y: Connector) => y.degree - x.degree || (x.asset < y.asset ? -1 : 1);
/** Highest score first, ties in hub order (scores are numbers: depths that are not count nothing). */
const scoreOrder = (x: Connector, y: Connector) => y.score - x.score || hubOrder(x, y);

/** How many pools hold an asset (native ETH's count with WETH's): its place in the hub order. */
function degrees(source: PoolSource, weth: string): (asset: string) => number {
  return (asset) =>
    source.poolCountOf(asset as Address) + (asset === weth ? source.poolCountOf(zeroAddress) : 0);
}

type GroupDepths = ReturnType<typeof groupDepths>;

/**
 * Depths as the ranking reads them: each group's pools on the side holding its asset. Unknown depths, and
 * any that is not a finite number, count nothing.
 */
function groupDepths(depthOf: NonNullable<PoolSource["depthOf"]>) {
  const depth = (group: NeighborPools, i: number) => {
    const known = depthOf(group.pools[i]!, group.sides[i]!);
    return known !== undefined && Number.isFinite(known) ? known : 0;
  };
  return {
    /**
     * How much of the asset the group's deepest pool holds: a route's branch goes through one pool a hop,
     * so a connector is as good as its deepest pool, not as its pools together.
     */
    held(group: NeighborPools | undefined): number {
      if (!group) return 0;
      // Written out (not through `depth`): a hub pair reads a few thousand depths a selection.
      const { pools, sides } = group;
      let most = 0;
      for (let i = 0; i < pools.length; i++) {
        const known = depthOf(pools[i]!, sides[i]!);
        if (known !== undefined && known > most && Number.isFinite(known)) most = known;
      }
      return most;
    },
    /** The group's pools, deepest first (a stable sort: equal depths keep the source's order). */
    deepest(group: NeighborPools): readonly IndexedPool[] {
      if (group.pools.length < 2) return group.pools;
      const depths = group.pools.map((_, i) => depth(group, i));
      return [...depths.keys()].sort((x, y) => depths[y]! - depths[x]!).map((i) => group.pools[i]!);
    },
  };
}

type ChosenPools = ReturnType<typeof chosenPools>;

/** The pools kept so far, each once, in the order first taken, never more than `cap`. */
function chosenPools(cap: number) {
  const chosen = new Map<string, IndexedPool>();
  /** Groups already taken whole: taking one again adds nothing, so it is not walked again. */
  const whole = new Set<NeighborPools>();
  const full = () => chosen.size >= cap;
  const takeSome = (pools: readonly IndexedPool[]) => {
    for (let i = 0; i < pools.length && !full(); i++) chosen.set(poolRef(pools[i]!), pools[i]!);
  };
  return {
    full,
    takeSome,
    /** A group's pools, deepest first when depths are known. */
    take(group: NeighborPools | undefined, depths: GroupDepths | undefined) {
      if (!group || full() || whole.has(group)) return;
      takeSome(depths ? depths.deepest(group) : group.pools);
      whole.add(group);
    },
    pools: () => [...chosen.values()],
  };
}
