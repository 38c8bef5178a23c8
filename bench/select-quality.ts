import type { Address } from "viem";
import type { IndexedPool } from "../src/liquidity/pool-index/pool.ts";
import { poolRef } from "../src/liquidity/pool-index/pool.ts";
import { PoolSet } from "../src/liquidity/pool-index/pool-set.ts";
import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { selectPools } from "../src/quote/select-pools.ts";
import { type Edge, edgesOf } from "../src/routing/edge.ts";
import { quotePath } from "../src/routing/path-curve.ts";
import { enumeratePaths, type Path } from "../src/routing/paths.ts";
import { searchRoutes } from "../src/routing/split-search.ts";
import { machineLine, table } from "./machine.ts";
import { convexBound, referenceCurve } from "./route-reference.ts";

/** Universe sizes in pools (`BENCH_SELECT_QUALITY=3000,10000`); tokens are a twentieth of them. */
const SIZES = (process.env.BENCH_SELECT_QUALITY ?? "3000,10000").split(",").map(Number);
/** WETH, USDC, USDT, DAI, WBTC: their USD prices. */
const HUB_PRICES = [3_000, 1, 1, 1, 60_000];
const TRADES_USD = [1_000, 100_000, 1_000_000];
/**
 * How far a pool's price may lie from the reference, either way: arbitrage keeps pools within about their
 * fee of each other (V2's 0.3%), so half of it.
 */
const PRICE_SPREAD = 0.0015;
/**
 * The reference's paths: of every path of up to 3 hops over every pool that can be on one (all the pair's
 * pools), the best this many by each of four measures (`referencePaths`).
 */
const REFERENCE_PATHS = 400;

/**
 * `npm run bench -- select-quality`: whether the 96 pools a quote keeps (src/quote/select-pools.ts, ranked
 * by depth as the quoter's followed state tells it, and by pool count as without it) cost output on a busy
 * chain's hub pairs, where hundreds of pools connect the two tokens. On synthetic V2
 * universes (N pools over N/20 tokens, five hubs in half the pools, log-normal depths, each pool's price a
 * little off the reference, as arbitrage leaves them), per hub pair and trade size: the search over the kept pools' paths, as the
 * quoter runs it, against the same search over every pool that can be on a path of up to 3 hops, and
 * against the convex bound over those (no split of up to 3 disjoint branches, in any proportions, beats it).
 */
export async function benchSelectQuality(): Promise<string[]> {
  const rows: string[][] = [];
  for (const size of SIZES) {
    const { pools, tokens, snapshots } = universe(size);
    const set = new PoolSet();
    for (const pool of pools) set.add(pool);
    const source = { poolsOf: (token: Address) => set.of(token), poolCountOf: (t: Address) => set.count(t) };
    // What the quoter's followed state tells of each pool: its reserves.
    const depthOf = (pool: IndexedPool, side: 0 | 1) => {
      const snapshot = snapshots.get(poolRef(pool));
      return snapshot?.kind === "v2" ? Number(side === 0 ? snapshot.reserve0 : snapshot.reserve1) : undefined;
    };
    const weth = tokens[0]!;
    const snapshotOf = (edge: Edge) => snapshots.get(edge.poolRef)!;
    const edgesFor = (chosen: readonly IndexedPool[]) =>
      chosen.flatMap((pool) => edgesOf(pool, snapshots.get(poolRef(pool))!));
    const pairs: [string, number, number][] = [
      ["WETH → USDC", 0, 1],
      ["USDC → USDT", 1, 2],
      ["USDC → WBTC", 1, 4],
    ];
    for (const [name, a, b] of pairs) {
      const [tokenIn, tokenOut] = [tokens[a]!, tokens[b]!];
      const kept = selectPools({ ...source, depthOf }, tokenIn, tokenOut, weth);
      const byCount = selectPools(source, tokenIn, tokenOut, weth);
      const reachable = pairPools(set, tokenIn, tokenOut);
      const keptPaths = enumeratePaths(edgesFor(kept), tokenIn, tokenOut, weth);
      const countPaths = enumeratePaths(edgesFor(byCount), tokenIn, tokenOut, weth);
      const allPaths = enumeratePaths(edgesFor(reachable), tokenIn, tokenOut, weth);
      for (const usd of TRADES_USD) {
        const amountIn = BigInt(Math.round((usd / HUB_PRICES[a]!) * 1e6)) * 10n ** 12n;
        const curves = referencePaths(allPaths, amountIn, snapshotOf).map((path) =>
          referenceCurve(path, amountIn, snapshotOf),
        );
        const reference = curves.map((curve) => curve.path);
        const ours = best(keptPaths, amountIn);
        const counted = best(countPaths, amountIn);
        const overAll = best(reference, amountIn);
        const { bound } = convexBound(curves, amountIn);
        rows.push([
          size.toLocaleString("en-US"),
          name,
          `$${usd.toLocaleString("en-US")}`,
          `${kept.length} of ${reachable.length}`,
          `${keptPaths.length} / ${allPaths.length}`,
          bps(ours, overAll),
          bps(ours, BigInt(Math.floor(bound))),
          bps(counted, overAll),
        ]);
      }
    }
  }
  return [
    "## Route quality of the kept pools at scale",
    "",
    machineLine(
      `synthetic V2 universes: N pools over N/20 tokens, 5 hubs in half the pools; pool prices within ${PRICE_SPREAD * 100}% of the reference; reference: of every path over all the pair's pools, the best ${REFERENCE_PATHS} by rate at zero input and by output on the whole trade, a third and a tenth of it`,
    ),
    "",
    ...table(
      [
        "Pools",
        "Pair",
        "Trade",
        "pools kept of the pair's",
        "paths: kept / all",
        "bps behind the search over all",
        "bps behind the convex bound over all",
        "ranked by pool count instead: bps behind the search over all",
      ],
      rows,
    ),
  ];
}

/** The top route's output of the split search over `paths`, by output alone (no gas conversion). */
function best(paths: readonly Path[], amountIn: bigint): bigint {
  return searchRoutes(paths, { amountIn })[0]?.amountOut ?? 0n;
}

/**
 * The reference's paths out of every path over the pair's pools: the best `REFERENCE_PATHS` by rate at
 * zero input, and by output on the whole trade, a third and a tenth of it (the shares a split of up to
 * three branches gives its branches), so that both small trades' best prices and large trades' deep pools
 * are in.
 */
function referencePaths(
  paths: readonly Path[],
  amountIn: bigint,
  snapshotOf: (edge: Edge) => PoolSnapshot,
): Path[] {
  const chosen = new Set<Path>();
  const keepBest = (score: (path: Path) => number) => {
    const scored = paths.map((path) => ({ path, score: score(path) }));
    scored.sort((a, b) => b.score - a.score);
    for (const { path } of scored.slice(0, REFERENCE_PATHS)) chosen.add(path);
  };
  keepBest((path) => spotRate(path, snapshotOf));
  for (const share of [1n, 3n, 10n])
    keepBest((path) => Number(quotePath(path, amountIn / share)?.amountOut ?? 0n));
  return [...chosen];
}

/** How far `ours` is below `reference`, in basis points (negative: above it). */
function bps(ours: bigint, reference: bigint): string {
  if (reference <= 0n) return "–";
  return ((Number(reference - ours) / Number(reference)) * 10_000).toFixed(2);
}

/** A path's output per input unit at zero input: the product of its pools' prices less their fees. */
function spotRate(path: Path, snapshotOf: (edge: Edge) => PoolSnapshot): number {
  let rate = 1;
  for (const edge of path) {
    const snapshot = snapshotOf(edge);
    if (snapshot.kind !== "v2") return 0;
    const [reserveIn, reserveOut] = edge.zeroForOne
      ? [snapshot.reserve0, snapshot.reserve1]
      : [snapshot.reserve1, snapshot.reserve0];
    rate *= (Number(reserveOut) / Number(reserveIn)) * 0.997;
  }
  return rate;
}

/**
 * Every pool that can be on a path of up to 3 hops from `tokenIn` to `tokenOut`: the pools of either
 * token, and those joining a neighbour of one to a neighbour of the other.
 */
function pairPools(set: PoolSet, tokenIn: Address, tokenOut: Address): IndexedPool[] {
  const other = (pool: IndexedPool, token: Address) => (pool.token0 === token ? pool.token1 : pool.token0);
  const nearIn = new Set(set.of(tokenIn).map((pool) => other(pool, tokenIn)));
  const nearOut = new Set(set.of(tokenOut).map((pool) => other(pool, tokenOut)));
  const found = new Map<string, IndexedPool>();
  for (const pool of [...set.of(tokenIn), ...set.of(tokenOut)]) found.set(poolRef(pool), pool);
  for (const token of nearIn)
    for (const pool of set.of(token)) if (nearOut.has(other(pool, token))) found.set(poolRef(pool), pool);
  return [...found.values()];
}

/**
 * N V2 pools over N/20 tokens from a fixed seed (as select-pools.ts draws them), with reserves: each token a
 * USD price (the hubs theirs, the tail log-normal around $0.50), each pool a log-normal depth (median
 * $200,000; one in sixteen thin, $1,000-5,000) and a price up to `PRICE_SPREAD` off the reference.
 */
function universe(size: number) {
  let seed = 4663;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
  const count = Math.max(HUB_PRICES.length + 2, Math.floor(size / 20));
  const tokens = Array.from({ length: count }, (_, i) => address(0x1000 + i));
  const prices = tokens.map((_, i) => HUB_PRICES[i] ?? 0.5 * Math.exp(1.5 * normal()));
  const discovery = { block: 1n, blockHash: `0x${"0".repeat(64)}` as const, via: "event" as const };
  const pools: IndexedPool[] = [];
  const snapshots = new Map<string, PoolSnapshot>();
  const units = (usd: number, price: number) =>
    BigInt(Math.max(1, Math.round((usd / price) * 1e6))) * 10n ** 12n;
  while (pools.length < size) {
    const hubs = HUB_PRICES.length;
    const a = random() < 0.5 ? Math.floor(random() * hubs) : Math.floor(count * random() ** 2);
    const b = Math.floor(count * random() ** 1.5);
    if (a === b) continue;
    const [i0, i1] = a < b ? [a, b] : [b, a];
    const pool: IndexedPool = {
      kind: "v2",
      address: address(0x100000 + pools.length),
      token0: tokens[i0]!,
      token1: tokens[i1]!,
      fee: 3000,
      discovery,
    };
    const depth = random() < 1 / 16 ? 1_000 + 4_000 * random() : 200_000 * Math.exp(1.2 * normal());
    const skew = 1 + (random() * 2 - 1) * PRICE_SPREAD;
    pools.push(pool);
    snapshots.set(poolRef(pool), {
      kind: "v2",
      address: pool.address,
      blockNumber: 1n,
      reserve0: units(depth / 2, prices[i0]!),
      reserve1: units((depth / 2) * skew, prices[i1]!),
    });
  }
  return { pools, tokens, snapshots };
}
