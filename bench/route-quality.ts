import { createTestClient, http, type PublicClient, publicActions } from "viem";
import { junctionChain } from "../src/chain/chain.ts";
import type { Devnet } from "../src/devnet/devnet.ts";
import { amountForUsd } from "../src/devnet/universe.ts";
import { type PathPoint, pathCurve, quotePath, shareOf } from "../src/routing/path-curve.ts";
import { type Path, poolsOf } from "../src/routing/paths.ts";
import { searchRoutes } from "../src/routing/split-search.ts";
import { machineLine, table } from "./machine.ts";
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
/** How many paths the search splits over (its `splitCandidates` default); both sides use the same set. */
const SPLIT_CANDIDATES = 8;
/** A wider set for the exhaustive side only: what restricting splits to the top 8 paths costs. */
const WIDE_CANDIDATES = 16;

type Allocation = { paths: Path[]; percents: number[]; out: bigint };

/**
 * `npm run bench -- quality`: the split search's output (top route of `searchRoutes`, ranked by output
 * alone: no gas conversion) against an exhaustive 1%-step search over the same 3-branch shape, on the same
 * pinned-block snapshots and the same candidate paths: every path alone at 100%, and every allocation of
 * 100% at 1% steps over 2 or 3 pool-disjoint paths among the top 8 paths ranked as the search ranks them
 * (best output alone at 100%, 50% or 33% of the input). Both sides' allocations are re-quoted exactly,
 * the last branch taking the remainder, as the search's routes are.
 */
export async function benchRouteQuality(devnet: Devnet): Promise<string[]> {
  const { manifest, rpcUrl } = devnet;
  const client = createTestClient({
    chain: junctionChain(rpcUrl),
    transport: http(rpcUrl),
    mode: "anvil",
  }).extend(publicActions) as unknown as PublicClient;
  const state = await loadRoutingState(client, manifest);

  const rows: string[][] = [];
  const gaps: number[] = [];
  const wideGaps: number[] = [];
  let noRoute = 0;
  let searchMs = 0;
  let exhaustiveMs = 0;
  for (const [from, to] of PAIRS) {
    const paths = state.pathsFor(state.token(from), state.token(to));
    for (const usd of SIZES_USD) {
      const amountIn = usd === 0n ? amountForUsd(from, 1n) / 100n : amountForUsd(from, usd);
      let started = performance.now();
      const [top] = searchRoutes(paths, { amountIn });
      searchMs += performance.now() - started;
      started = performance.now();
      const ranked = rankLikeSearch(paths, amountIn);
      const curves = ranked
        .slice(0, WIDE_CANDIDATES)
        .map(({ path }) => ({ path, points: pathCurve(path, amountIn) }));
      const best = exhaustive(ranked, curves.slice(0, SPLIT_CANDIDATES), amountIn);
      const wide = exhaustive(ranked, curves, amountIn);
      exhaustiveMs += performance.now() - started;
      const size = usd === 0n ? "dust ($0.01)" : `$${usd.toLocaleString("en-US")}`;
      if (!top || !best || !wide) {
        if (top || best || wide)
          throw new Error(`${from}→${to} ${size}: one side found a route, the other not`);
        noRoute++;
        rows.push([`${from}→${to}`, size, String(paths.length), "no route", "-", "-", "-", "-", "-", "-"]);
        continue;
      }
      const gap = gapBps(best.out, top.amountOut);
      const wideGap = gapBps(wide.out, top.amountOut);
      gaps.push(gap);
      wideGaps.push(wideGap);
      rows.push([
        `${from}→${to}`,
        size,
        String(paths.length),
        shape(
          top.branches.map((b) => ({
            hops: b.path.length,
            share: Number((b.amountIn * 1000n) / amountIn) / 10,
          })),
        ),
        top.amountOut.toString(),
        shape(best.paths.map((p, i) => ({ hops: p.length, share: best.percents[i]! }))),
        best.out.toString(),
        gap.toFixed(2),
        shape(wide.paths.map((p, i) => ({ hops: p.length, share: wide.percents[i]! }))),
        wideGap.toFixed(2),
      ]);
    }
  }

  const sorted = [...gaps].sort((a, b) => a - b);
  const wideSorted = [...wideGaps].sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor((values.length - 1) / 2)]!;
  const exact = gaps.filter((g) => g <= 0).length;
  return [
    "## Route quality",
    "",
    machineLine(
      `devnet seed ${manifest.seed}, ${devnet.boot.kind} boot, block ${state.blockNumber}; ${PAIRS.length} pairs × ${SIZES_USD.length} sizes = ${PAIRS.length * SIZES_USD.length} scenarios; candidate paths as the quoter selects them (\`selectPools\`, up to 3 hops, executable)`,
    ),
    "",
    `Gap = (exhaustive − search) / exhaustive output, in bps; ≤ 0 means the search matched or beat the exhaustive sweep (its exact re-quote of the last branch's remainder can differ by a few wei). Exhaustive: every path alone, and every 1% allocation over 2 or 3 pool-disjoint paths among the top ${SPLIT_CANDIDATES} (the search's own split candidates); "top ${WIDE_CANDIDATES}" widens only the exhaustive side.`,
    "",
    ...table(
      ["Summary", "Scenarios", "Median gap (bps)", "Worst gap (bps)", "Search ≥ exhaustive"],
      [
        [
          `same candidates (top ${SPLIT_CANDIDATES})`,
          String(gaps.length),
          median(sorted).toFixed(2),
          sorted[sorted.length - 1]!.toFixed(2),
          `${exact} of ${gaps.length}`,
        ],
        [
          `exhaustive over the top ${WIDE_CANDIDATES}`,
          String(wideGaps.length),
          median(wideSorted).toFixed(2),
          wideSorted[wideSorted.length - 1]!.toFixed(2),
          `${wideGaps.filter((g) => g <= 0).length} of ${wideGaps.length}`,
        ],
      ],
    ),
    "",
    `${noRoute} scenarios have no route on either side (every path fails to fill: a hop past its pool's loaded state or its price limit). Time: search ${searchMs.toFixed(0)} ms in all, exhaustive sweeps ${(exhaustiveMs / 1000).toFixed(1)} s.`,
    "",
    ...table(
      [
        "Pair",
        "Size",
        "Paths",
        "Search route (hops@share)",
        "Search out",
        `Exhaustive (top ${SPLIT_CANDIDATES})`,
        "Exhaustive out",
        "Gap (bps)",
        `Exhaustive (top ${WIDE_CANDIDATES})`,
        `Gap vs top ${WIDE_CANDIDATES} (bps)`,
      ],
      rows,
    ),
  ];
}

type Curve = { path: Path; points: PathPoint[] };

/** A path's output at `percent` of the input, as `pathCurve` computes it. */
const pointAt = (path: Path, amountIn: bigint, percent: number): PathPoint => {
  const amount = shareOf(amountIn, percent);
  return amount > 0n ? quotePath(path, amount) : undefined;
};

/**
 * Paths in the search's split-candidate order (best output alone at 100%, 50% or 33% of the input, best
 * first; paths that fill at none of them dropped), each with its output at 100% for the singles.
 */
function rankLikeSearch(paths: readonly Path[], amountIn: bigint): { path: Path; alone: PathPoint }[] {
  return paths
    .map((path) => {
      const [alone, half, third] = [100, 50, 33].map((p) => pointAt(path, amountIn, p));
      let rank: bigint | undefined;
      for (const point of [alone, half, third])
        if (point && (rank === undefined || point.amountOut > rank)) rank = point.amountOut;
      return { path, alone, rank };
    })
    .filter((entry) => entry.rank !== undefined)
    .sort((a, b) => (a.rank! > b.rank! ? -1 : a.rank! < b.rank! ? 1 : 0));
}

/**
 * The best of: every path alone (`singles`), and every 1% allocation over 2 or 3 pool-disjoint
 * `candidates`; exactly re-quoted.
 */
function exhaustive(
  singles: readonly { path: Path; alone: PathPoint }[],
  candidates: readonly Curve[],
  amountIn: bigint,
): Allocation | undefined {
  let best: { paths: Path[]; percents: number[]; out: bigint } | undefined;
  for (const { path, alone } of singles)
    if (alone && (!best || alone.amountOut > best.out))
      best = { paths: [path], percents: [100], out: alone.amountOut };
  const pools = candidates.map((c) => new Set(poolsOf(c.path)));
  const disjoint = (i: number, j: number) => [...pools[i]!].every((pool) => !pools[j]!.has(pool));
  const out = (curve: Curve, percent: number) => curve.points[percent]?.amountOut;
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      if (!disjoint(i, j)) continue;
      const [a, b] = [candidates[i]!, candidates[j]!];
      for (let x = 1; x < 100; x++) {
        const [oa, ob] = [out(a, x), out(b, 100 - x)];
        if (oa === undefined || ob === undefined) continue;
        if (!best || oa + ob > best.out)
          best = { paths: [a.path, b.path], percents: [x, 100 - x], out: oa + ob };
      }
      for (let k = j + 1; k < candidates.length; k++) {
        if (!disjoint(i, k) || !disjoint(j, k)) continue;
        const c = candidates[k]!;
        for (let x = 1; x < 99; x++) {
          const oa = out(a, x);
          if (oa === undefined) continue;
          for (let y = 1; x + y < 100; y++) {
            const [ob, oc] = [out(b, y), out(c, 100 - x - y)];
            if (ob === undefined || oc === undefined) continue;
            const total = oa + ob + oc;
            if (!best || total > best.out)
              best = { paths: [a.path, b.path, c.path], percents: [x, y, 100 - x - y], out: total };
          }
        }
      }
    }
  }
  if (!best) return undefined;
  // Exact amounts as the search's routes have them: each share floored, the last branch takes the rest.
  const { paths, percents } = best;
  let assigned = 0n;
  let total = 0n;
  for (let i = 0; i < paths.length; i++) {
    const branchIn = i === paths.length - 1 ? amountIn - assigned : shareOf(amountIn, percents[i]!);
    assigned += branchIn;
    const point = quotePath(paths[i]!, branchIn);
    if (!point) return undefined;
    total += point.amountOut;
  }
  return { paths, percents, out: total };
}

/** (reference − value) / reference in bps, as a float for display (amounts stay bigint until here). */
function gapBps(reference: bigint, value: bigint): number {
  return Number(((reference - value) * 1_000_000n) / reference) / 100;
}

function shape(branches: { hops: number; share: number }[]): string {
  return branches.map((b) => `${b.hops}@${b.share}%`).join(" + ");
}
