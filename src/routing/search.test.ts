import { type Address, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { poolRef, type V2Pool } from "../liquidity/pool-index/pool.ts";
import { type Edge, edgesOf } from "./edge.ts";
import { quotePath } from "./path-curve.ts";
import { enumeratePaths, type Path } from "./paths.ts";
import { searchRoutes } from "./split-search.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const [A, B, C, WETH] = [addr(0xa), addr(0xb), addr(0xc), addr(0xe)];
let next = 0x100;
function v2(token0: Address, token1: Address, reserve0: bigint, reserve1: bigint) {
  const address = addr(next++);
  const pool: V2Pool = {
    kind: "v2",
    address,
    token0,
    token1,
    fee: 3000,
    discovery: { block: 1n, blockHash: `0x${"0".repeat(64)}`, via: "event" },
  };
  return edgesOf(pool, { kind: "v2", address, blockNumber: 1n, reserve0, reserve1 });
}
const E18 = 10n ** 18n;

describe("path enumeration", () => {
  it("finds every simple path of up to 3 hops, treating native ETH and WETH as one asset", () => {
    const edges = [
      ...v2(A, B, E18, E18),
      ...v2(A, WETH, E18, E18),
      ...v2(WETH, B, E18, E18),
      ...v2(A, C, E18, E18),
      ...v2(C, WETH, E18, E18),
    ];
    const paths = enumeratePaths(edges, A, B, WETH);
    const shapes = paths.map((path) =>
      path.map((e) => `${e.tokenIn.slice(-1)}>${e.tokenOut.slice(-1)}`).join(" "),
    );
    expect(shapes.sort()).toEqual(["a>b", "a>c c>e e>b", "a>e e>b"]);
    expect(enumeratePaths(edges, A, B, WETH, 2)).toHaveLength(2);
    // Native ETH in: starts at the WETH asset.
    expect(
      enumeratePaths(edges, zeroAddress, B, WETH)
        .map((p) => p.length)
        .sort(),
    ).toEqual([1, 2, 3]);
  });
});

describe("split search", () => {
  it("splits evenly across two identical pools and beats the single path", () => {
    const edges = [...v2(A, B, 1000n * E18, 1000n * E18), ...v2(A, B, 1000n * E18, 1000n * E18)];
    const paths = enumeratePaths(edges, A, B, WETH);
    const amountIn = 200n * E18;
    const routes = searchRoutes(paths, { amountIn });
    const [top] = routes;
    expect(top!.branches).toHaveLength(2);
    expect(top!.branches.map((b) => b.amountIn)).toEqual([100n * E18, 100n * E18]);
    const single = routes.find((r) => r.branches.length === 1)!;
    expect(top!.amountOut).toBeGreaterThan(single.amountOut);
    for (const route of routes) {
      expect(route.branches.reduce((sum, b) => sum + b.amountIn, 0n)).toBe(amountIn);
      expect(route.amountOut).toBe(route.branches.reduce((sum, b) => sum + b.amountOut, 0n));
    }
  });

  it("refines to the 1% optimum for unequal pools (checked against an exhaustive 1% sweep)", () => {
    const edges = [...v2(A, B, 3000n * E18, 3000n * E18), ...v2(A, B, 700n * E18, 700n * E18)];
    const paths = enumeratePaths(edges, A, B, WETH);
    const amountIn = 500n * E18;
    const [top] = searchRoutes(paths, { amountIn });
    let bestOut = 0n;
    for (let p = 1; p < 100; p++) {
      const x = (amountIn * BigInt(p)) / 100n;
      const out = quotePath(paths[0]!, x)!.amountOut + quotePath(paths[1]!, amountIn - x)!.amountOut;
      if (out > bestOut) bestOut = out;
    }
    expect(top!.amountOut).toBe(bestOut);
  });

  it("prefers fewer branches when gas costs more than splitting gains", () => {
    const edges = [...v2(A, B, 1000n * E18, 1000n * E18), ...v2(A, B, 1000n * E18, 1000n * E18)];
    const paths = enumeratePaths(edges, A, B, WETH);
    const expensive = (gas: number) => BigInt(gas) * 10n ** 14n; // GAS_MODEL.branch (about 10k gas) = about 1 B
    const [top] = searchRoutes(paths, { amountIn: E18, gasToOut: expensive });
    expect(top!.branches).toHaveLength(1);
    expect(top!.score).toBe(top!.amountOut - expensive(top!.gas));
  });

  it("never routes through a hop that cannot fill", () => {
    const edges = [...v2(A, B, 10n, 10n)];
    const paths = enumeratePaths(edges, A, B, WETH);
    // A 1 wei input into a 10-wei pool rounds to zero output: unusable, so no route at all.
    expect(searchRoutes(paths, { amountIn: 1n })).toEqual([]);
  });

  it("uses three pool-disjoint branches when three pools are needed", () => {
    const edges = [
      ...v2(A, B, 1000n * E18, 1000n * E18),
      ...v2(A, B, 1000n * E18, 1000n * E18),
      ...v2(A, B, 1000n * E18, 1000n * E18),
    ];
    const paths = enumeratePaths(edges, A, B, WETH);
    const [top] = searchRoutes(paths, { amountIn: 600n * E18 });
    expect(top!.branches).toHaveLength(3);
    const pools = top!.branches.map((b) => b.path[0]!.pool);
    expect(new Set(pools).size).toBe(3);
  });

  // The best paths alone all go through one pool (here A→X, then one of nine X→B pools), so no two of the
  // top eight are pool-disjoint: ranking paths alone would find no split at all.
  it("finds a disjoint partner that ranks low alone when the best paths share a pool", () => {
    const X = addr(0xf);
    const deep = v2(A, X, 1_000_000n * E18, 1_000_000n * E18);
    const exits = Array.from({ length: 9 }, () => v2(X, B, 1000n * E18, 1000n * E18));
    const direct = v2(A, B, 500n * E18, 500n * E18);
    const paths = enumeratePaths([...deep, ...exits.flat(), ...direct], A, B, WETH);
    const amountIn = 100n * E18;
    const routes = searchRoutes(paths, { amountIn });
    const [top] = routes;
    const single = routes.find((r) => r.branches.length === 1)!;
    expect(top!.branches.length).toBeGreaterThan(1);
    expect(top!.amountOut).toBeGreaterThan(single.amountOut);
    expect(top!.branches.some((b) => b.path.length === 1 && b.path[0]!.pool === direct[0]!.pool)).toBe(true);
  });

  // Every good path ends in the one Y→B pool; the route the search must build uses it once and two direct
  // pools that each do worse alone than any path through the bottleneck.
  it("builds the three-branch route around a shared bottleneck pool", () => {
    const Y = addr(0xd);
    const entries = Array.from({ length: 9 }, () => v2(A, Y, 100_000n * E18, 100_000n * E18));
    const bottleneck = v2(Y, B, 2000n * E18, 2000n * E18);
    const directs = [v2(A, B, 800n * E18, 800n * E18), v2(A, B, 800n * E18, 800n * E18)];
    const paths = enumeratePaths([...entries.flat(), ...bottleneck, ...directs.flat()], A, B, WETH);
    const amountIn = 300n * E18;
    const [top] = searchRoutes(paths, { amountIn });
    expect(top!.branches).toHaveLength(3);
    const firstPools = new Set(top!.branches.map((b) => b.path[0]!.pool));
    for (const direct of directs) expect(firstPools.has(direct[0]!.pool)).toBe(true);
    // Within a few wei of the exhaustive 1% optimum over {bottleneck path, direct, direct}.
    const throughY = paths.find((p) => p.length === 2)!;
    const [d1, d2] = directs.map((d) => paths.find((p) => p.length === 1 && p[0]!.pool === d[0]!.pool)!);
    let bestOut = 0n;
    for (let x = 1; x < 99; x++)
      for (let y = 1; x + y < 100; y++) {
        const [ax, ay] = [(amountIn * BigInt(x)) / 100n, (amountIn * BigInt(y)) / 100n];
        const out =
          quotePath(throughY, ax)!.amountOut +
          quotePath(d1!, ay)!.amountOut +
          quotePath(d2!, amountIn - ax - ay)!.amountOut;
        if (out > bestOut) bestOut = out;
      }
    expect(top!.amountOut).toBeGreaterThanOrEqual(bestOut);
  });

  // A trade three times the deep pool's reserves: the two small pools at a better price each take about 3%.
  // The 10% grid lands far from that (its ±9% refinement window cannot reach it); the 1% climb gets there.
  it("climbs to the best 1% allocation far from its grid point", () => {
    const pools = [
      v2(A, B, 3000n * E18, 3000n * E18),
      v2(A, B, 100n * E18, 110n * E18),
      v2(A, B, 100n * E18, 110n * E18),
    ];
    const paths = enumeratePaths(pools.flat(), A, B, WETH);
    const amountIn = 10_000n * E18;
    const [top] = searchRoutes(paths, { amountIn });
    expect(top!.amountOut).toBeGreaterThanOrEqual(bestWholePercentSplit(paths, amountIn, 3));
    expect(top!.branches).toHaveLength(3);
  });

  // Every pair with the deepest pool scores the same at its best grid point (100% and 0%); only the small
  // pool at the best price is worth its 1%. Ranked with the empty branch given 1%, that pair is refined.
  it("tells apart groups whose best grid point leaves a branch empty", () => {
    const reserves: [bigint, bigint][] = [
      [155n, 162n],
      [5213n, 5838n],
      [483n, 483n],
      [31n, 35n],
      [6012n, 6553n],
    ];
    const paths = enumeratePaths(
      reserves.flatMap(([r0, r1]) => v2(A, B, r0 * E18, r1 * E18)),
      A,
      B,
      WETH,
    );
    const amountIn = 47n * E18;
    const [top] = searchRoutes(paths, { amountIn });
    expect(top!.amountOut).toBeGreaterThanOrEqual(bestWholePercentSplit(paths, amountIn, 2));
  });

  it("hands on a few routes of each shape for simulation to decide between, not one", () => {
    const edges = [
      ...v2(A, B, 1000n * E18, 1000n * E18),
      ...v2(A, B, 900n * E18, 900n * E18),
      ...v2(A, B, 800n * E18, 800n * E18),
      ...v2(A, B, 700n * E18, 700n * E18),
    ];
    const routes = searchRoutes(enumeratePaths(edges, A, B, WETH), { amountIn: E18 });
    const shapes = routes.map((r) => r.branches.length);
    expect(shapes.filter((n) => n === 1)).toHaveLength(3);
    expect(shapes.filter((n) => n === 2)).toHaveLength(2);
    expect(shapes.filter((n) => n === 3)).toHaveLength(1);
    expect(new Set(routes.map((r) => r.branches.map((b) => poolRef(b.path[0]!.pool)).join())).size).toBe(
      routes.length,
    );
  });

  // Two deep pools and a trade whose price impact is far below the gas of a second branch: the spot-rate
  // ceiling proves no split can win, so no path is quoted at any share but the whole input.
  it("proves a small trade needs no split and quotes each path at the whole input only", () => {
    const quoted: bigint[] = [];
    const counting = (edges: Edge[]) =>
      edges.map((edge) => ({
        ...edge,
        quote: (amount: bigint) => {
          quoted.push(amount);
          return edge.quote(amount);
        },
      }));
    const edges = [
      ...counting(v2(A, B, 1000n * E18, 1000n * E18)),
      ...counting(v2(A, B, 900n * E18, 900n * E18)),
    ];
    const paths = enumeratePaths(edges, A, B, WETH);
    const gasToOut = (gas: number) => BigInt(gas) * 10n ** 10n; // a branch (12.3k gas) ≈ 1.2e14 of B
    const routes = searchRoutes(paths, { amountIn: E18 / 1000n, gasToOut });
    expect(routes.map((r) => r.branches.length)).toEqual([1, 1]);
    expect(new Set(quoted)).toEqual(new Set([E18 / 1000n]));

    // A trade where splitting loses by less than the margin the caller simulates within: splits searched.
    quoted.length = 0;
    searchRoutes(paths, { amountIn: E18 / 2n, gasToOut, proposeWithinGas: 200_000 });
    expect(new Set(quoted).size).toBeGreaterThan(1);
    // Without that margin the same trade is proven single (its impact, ~2.5e14 of B, is less than a branch
    // and a hop's gas, 6.75e14).
    quoted.length = 0;
    const proven = searchRoutes(paths, { amountIn: E18 / 2n, gasToOut });
    expect(new Set(quoted)).toEqual(new Set([E18 / 2n]));
    expect(proven.map((r) => r.branches.length)).toEqual([1, 1]);
  });

  it("stops with no routes once paths are ranked when the caller abandons the search", () => {
    const quoted: bigint[] = [];
    const edges = [...v2(A, B, 1000n * E18, 1000n * E18), ...v2(A, B, 900n * E18, 900n * E18)].map(
      (edge) => ({
        ...edge,
        quote: (amount: bigint) => {
          quoted.push(amount);
          return edge.quote(amount);
        },
      }),
    );
    const paths = enumeratePaths(edges, A, B, WETH);
    const amountIn = 200n * E18;
    expect(searchRoutes(paths, { amountIn, abandon: () => true })).toEqual([]);
    // The whole input, a half and a third: ranking only, no split grid.
    expect(new Set(quoted)).toEqual(new Set([amountIn, amountIn / 2n, (amountIn * 33n) / 100n]));
    expect(searchRoutes(paths, { amountIn, abandon: () => false })[0]!.branches).toHaveLength(2);
  });
});

/** The best allocation of whole percents over any `branches` of the (single-hop) paths, exactly quoted. */
function bestWholePercentSplit(paths: readonly Path[], amountIn: bigint, branches: 2 | 3): bigint {
  const out = (path: Path, percent: number, rest?: bigint) =>
    quotePath(path, rest ?? (amountIn * BigInt(percent)) / 100n)?.amountOut ?? -1n;
  let best = 0n;
  for (const [i, a] of paths.entries())
    for (const [j, b] of paths.entries()) {
      if (j <= i) continue;
      for (let x = 1; x < 100; x++) {
        const ax = (amountIn * BigInt(x)) / 100n;
        if (branches === 2) {
          const total = out(a, x) + out(b, 0, amountIn - ax);
          if (total > best) best = total;
          continue;
        }
        for (const [k, c] of paths.entries()) {
          if (k <= j) continue;
          for (let y = 1; x + y < 100; y++) {
            const ay = (amountIn * BigInt(y)) / 100n;
            const total = out(a, x) + out(b, y) + out(c, 0, amountIn - ax - ay);
            if (total > best) best = total;
          }
        }
      }
    }
  return best;
}
