import { type Address, createTestClient, http, type PublicClient, publicActions } from "viem";
import { junctionChain } from "../src/chain/chain.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { MAX_TICK } from "../src/liquidity/math/tick-math.ts";
import type { V2Pool } from "../src/liquidity/pool-index/pool.ts";
import type { PoolSnapshot } from "../src/liquidity/read/load-pool-states.ts";
import { WIDENED_WINDOW_TICKS } from "../src/liquidity/read/word-window.ts";
import { type Edge, edgesOf } from "../src/routing/edge.ts";
import { enumeratePaths, type Path } from "../src/routing/paths.ts";
import { type SearchedRoute, searchRoutes } from "../src/routing/split-search.ts";
import { machineLine, table } from "./machine.ts";
import { convexBound, exhaustiveReference, type ReferenceCurve, referenceCurve } from "./route-reference.ts";
import { loadRoutingState } from "./routing-state.ts";

/** Pairs one, two and three hops apart, with native ETH on either side. */
const PAIRS: [string, string][] = [
  ["WETH", "USDC"],
  ["USDC", "USDT"],
  ["ETH", "USDC"],
  ["USDC", "ETH"],
  ["WBTC", "USDC"],
  ["DAI", "USDT"],
  ["LINK", "USDT"],
  ["AAVE", "USDT"],
  ["FROG", "DAI"],
  ["UNI", "WBTC"],
  ["TINY", "AAVE"],
  ["MOON", "GEM"],
];
/** Sizes in USD at reference prices: dust (one cent) to pool-draining (most pools hold $0.5M to $20M). */
const SIZES_USD = [0n, 100n, 10_000n, 1_000_000n, 10_000_000n];

type Scenario = {
  name: string;
  size: string;
  amountIn: bigint;
  /** The paths the quoter searches, over the state it would have (its first window, widened 8x). */
  searchPaths: Path[];
  /** The same paths over every pool's full tick range, with each edge's snapshot. */
  referencePaths: Path[];
  snapshotOf: (edge: Edge) => PoolSnapshot;
};

/**
 * `npm run bench -- quality`: the split search (its top route, ranked by output alone: no gas conversion)
 * against yardsticks that cannot share its blind spots (bench/route-reference.ts): the exhaustive 1% sweep
 * over every path alone and every pool-disjoint group of 2 or 3 of all the quoter's candidate paths, on
 * the pools' full tick ranges; and the convex bound, which no split of any shape can beat. Scenarios: 12
 * devnet pairs at 5 sizes, plus pool graphs built to break a search that ranks paths alone (the best paths
 * sharing one pool; every good path ending in one bottleneck pool).
 */
export async function benchRouteQuality(
  devnet: Devnet,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const client = createTestClient({
    chain: junctionChain(rpcUrl),
    transport: http(rpcUrl),
    mode: "anvil",
  }).extend(publicActions) as unknown as PublicClient;
  let started = performance.now();
  const searchState = await loadRoutingState(client, manifest, WIDENED_WINDOW_TICKS);
  const fullState = await loadRoutingState(client, manifest, 2 * MAX_TICK);
  const loadMs = performance.now() - started;
  log(`quality: state loaded (widened window and full range) in ${(loadMs / 1000).toFixed(1)} s`);

  const scenarios: Scenario[] = [];
  for (const [from, to] of PAIRS)
    for (const usd of SIZES_USD)
      scenarios.push({
        name: `${from}→${to}`,
        size: usd === 0n ? "dust ($0.01)" : `$${usd.toLocaleString("en-US")}`,
        amountIn: usd === 0n ? amountForUsd(from, 1n) / 100n : amountForUsd(from, usd),
        searchPaths: searchState.pathsFor(searchState.token(from), searchState.token(to)),
        referencePaths: fullState.pathsFor(fullState.token(from), fullState.token(to)),
        snapshotOf: fullState.snapshotOf,
      });
  scenarios.push(...builtToBreak());

  const rows: string[][] = [];
  const bySize = new Map<string, { reference: number[]; bound: number[] }>();
  let searchMs = 0;
  let referenceMs = 0;
  let noRoute = 0;
  for (const scenario of scenarios) {
    const { amountIn } = scenario;
    started = performance.now();
    const [top] = searchRoutes(scenario.searchPaths, { amountIn });
    searchMs += performance.now() - started;
    started = performance.now();
    const curves: ReferenceCurve[] = scenario.referencePaths.map((path) =>
      referenceCurve(path, amountIn, scenario.snapshotOf),
    );
    const usable = curves.filter((curve) => curve.points.some((point) => point !== undefined));
    const { bound, lambda } = usable.length > 0 ? convexBound(usable, amountIn) : { bound: 0, lambda: 0 };
    const reference = exhaustiveReference(usable, amountIn, lambda);
    referenceMs += performance.now() - started;
    if (!top || !reference) {
      if (top || reference)
        throw new Error(`${scenario.name} ${scenario.size}: one side found a route, the other not`);
      noRoute++;
      rows.push([scenario.name, scenario.size, String(curves.length), "no route", "-", "-", "-", "-", "-"]);
      continue;
    }
    if (Number(reference.out) > bound * (1 + 1e-9))
      throw new Error(`${scenario.name} ${scenario.size}: the reference beats the bound, which cannot be`);
    const gap = gapBps(Number(reference.out), Number(top.amountOut));
    const boundGap = gapBps(bound, Number(top.amountOut));
    const sizeClass = scenario.size.startsWith("built") ? "built to break" : scenario.size;
    const stats = bySize.get(sizeClass) ?? { reference: [], bound: [] };
    stats.reference.push(gap);
    stats.bound.push(boundGap);
    bySize.set(sizeClass, stats);
    rows.push([
      scenario.name,
      scenario.size,
      String(curves.length),
      routeShape(top),
      shape(reference.paths.map((p, i) => ({ hops: p.length, share: reference.percents[i]! }))),
      gap.toFixed(2),
      boundGap.toFixed(2),
      gapBps(bound, Number(reference.out)).toFixed(2),
    ]);
    log(
      `quality: ${scenario.name} ${scenario.size}: gap ${gap.toFixed(2)} bps, to the bound ${boundGap.toFixed(2)} bps`,
    );
  }

  const all = [...bySize.values()].flatMap((stats) => stats.reference);
  const allBound = [...bySize.values()].flatMap((stats) => stats.bound);
  const summary = (label: string, reference: number[], boundGaps: number[]) => [
    label,
    String(reference.length),
    median(reference).toFixed(2),
    Math.max(...reference).toFixed(2),
    `${reference.filter((g) => g <= 0.005).length} of ${reference.length}`,
    median(boundGaps).toFixed(2),
    Math.max(...boundGaps).toFixed(2),
  ];
  return [
    "## Route quality",
    "",
    machineLine(
      `devnet seed ${manifest.seed}, ${devnet.boot.kind} boot, block ${fullState.blockNumber}; ${scenarios.length} scenarios (${PAIRS.length} pairs × ${SIZES_USD.length} sizes, and ${scenarios.length - PAIRS.length * SIZES_USD.length} built to break a path-ranking search); candidate paths as the quoter selects them (\`selectPools\`, up to 3 hops, executable)`,
    ),
    "",
    "Gap = (yardstick − search) / yardstick output, in bps, ranked by output alone (no gas). Reference: the best of every candidate path alone and every whole-percent allocation over 2 or 3 pool-disjoint candidate paths (all of them, pruned only by a duality bound that is provably safe), on every pool's full tick range, exactly re-quoted. Bound: the convex upper bound on any split at all (any proportions, any number of branches) from the curves' concave envelopes; no route can beat it. The search runs as the quoter does: its first tick window, widened 8x where a quote runs past it.",
    "",
    ...table(
      [
        "Size",
        "Scenarios",
        "Median gap (bps)",
        "Worst gap (bps)",
        "Search ≥ reference",
        "Median to bound",
        "Worst to bound",
      ],
      [
        ...[...bySize.entries()].map(([size, stats]) => summary(size, stats.reference, stats.bound)),
        summary("all", all, allBound),
      ],
    ),
    "",
    `${noRoute} scenarios have no route on either side. Time: loading both states ${(loadMs / 1000).toFixed(1)} s; the search ${searchMs.toFixed(0)} ms in all; reference curves, bounds and sweeps ${(referenceMs / 1000).toFixed(1)} s.`,
    "",
    ...table(
      [
        "Scenario",
        "Size",
        "Paths",
        "Search route (hops@share)",
        "Reference route",
        "Gap (bps)",
        "Gap to bound (bps)",
        "Reference to bound (bps)",
      ],
      rows,
    ),
  ];
}

/**
 * In-memory pool graphs (V2 pools, exact math) where the best paths alone all share one pool, so no two of
 * the top few are disjoint: a search that splits only over its best-ranked paths finds no split at all.
 */
function builtToBreak(): Scenario[] {
  const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
  const [A, B, X, Y, WETH] = [addr(0xa), addr(0xb), addr(0xf), addr(0xd), addr(0xe)];
  const E18 = 10n ** 18n;
  const snapshots = new Map<Edge, PoolSnapshot>();
  let next = 0x100;
  const v2 = (token0: Address, token1: Address, reserve0: bigint, reserve1: bigint): Edge[] => {
    const address = addr(next++);
    const pool: V2Pool = {
      kind: "v2",
      address,
      token0,
      token1,
      fee: 3000,
      discovery: { block: 1n, blockHash: `0x${"0".repeat(64)}`, via: "event" },
    };
    const snapshot: PoolSnapshot = { kind: "v2", address, blockNumber: 1n, reserve0, reserve1 };
    const edges = edgesOf(pool, snapshot);
    for (const edge of edges) snapshots.set(edge, snapshot);
    return edges;
  };
  const graphs: { name: string; edges: Edge[]; sizes: bigint[] }[] = [
    {
      // A deep A→X pool, nine X→B exits, and one smaller direct A→B pool that ranks below all nine.
      name: "shared first pool",
      edges: [
        ...v2(A, X, 1_000_000n * E18, 1_000_000n * E18),
        ...Array.from({ length: 9 }, () => v2(X, B, 1000n * E18, 1000n * E18)).flat(),
        ...v2(A, B, 500n * E18, 500n * E18),
      ],
      sizes: [10n * E18, 100n * E18, 1000n * E18],
    },
    {
      // Nine A→Y pools all ending in one Y→B bottleneck, and two direct pools each worse alone.
      name: "shared bottleneck",
      edges: [
        ...Array.from({ length: 9 }, () => v2(A, Y, 100_000n * E18, 100_000n * E18)).flat(),
        ...v2(Y, B, 2000n * E18, 2000n * E18),
        ...v2(A, B, 800n * E18, 800n * E18),
        ...v2(A, B, 800n * E18, 800n * E18),
      ],
      sizes: [30n * E18, 300n * E18, 3000n * E18],
    },
  ];
  return graphs.flatMap(({ name, edges, sizes }) => {
    const paths = enumeratePaths(edges, A, B, WETH);
    return sizes.map((amountIn) => ({
      name,
      size: `built: ${amountIn / E18} A`,
      amountIn,
      searchPaths: paths,
      referencePaths: paths,
      snapshotOf: (edge: Edge) => snapshots.get(edge)!,
    }));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** (yardstick − value) / yardstick in bps. */
function gapBps(yardstick: number, value: number): number {
  return ((yardstick - value) / yardstick) * 10_000;
}

function routeShape(route: SearchedRoute): string {
  const total = route.branches.reduce((sum, b) => sum + b.amountIn, 0n);
  return shape(
    route.branches.map((b) => ({ hops: b.path.length, share: Number((b.amountIn * 1000n) / total) / 10 })),
  );
}

function shape(branches: { hops: number; share: number }[]): string {
  return branches.map((b) => `${b.hops}@${b.share}%`).join(" + ");
}
