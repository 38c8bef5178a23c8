import fc from "fast-check";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import type { V2Pool } from "../liquidity/pool-index/pool.ts";
import { edgesOf } from "./edge.ts";
import { GAS_MODEL } from "./gas-model.ts";
import { lazyPathCurve, quotePath } from "./path-curve.ts";
import { enumeratePaths, type Path } from "./paths.ts";
import { splitCeiling } from "./split-ceiling.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const [A, B, C, WETH] = [addr(0xa), addr(0xb), addr(0xc), addr(0xe)];
const E18 = 10n ** 18n;

function v2(n: number, token0: Address, token1: Address, reserve0: bigint, reserve1: bigint) {
  const address = addr(0x100 + n);
  const pool = { kind: "v2", address, token0, token1, fee: 3000 } as unknown as V2Pool;
  return edgesOf(pool, { kind: "v2", address, blockNumber: 1n, reserve0, reserve1 });
}

/** The best score of any split over 2 or 3 pool-disjoint paths, on a whole-percent (pairs) or 5% grid. */
function bestSplitScore(paths: readonly Path[], amountIn: bigint, gasToOut: (gas: number) => bigint): bigint {
  const value = (path: Path, amount: bigint) => {
    const point = amount > 0n ? quotePath(path, amount) : undefined;
    return point ? point.amountOut - gasToOut(point.gas) : undefined;
  };
  const pools = (path: Path) => path.map((edge) => edge.pool);
  const disjoint = (...group: Path[]) => new Set(group.flatMap(pools)).size === group.flatMap(pools).length;
  const share = (percent: number) => (amountIn * BigInt(percent)) / 100n;
  let best: bigint | undefined;
  const offer = (values: (bigint | undefined)[], branches: number) => {
    if (values.some((v) => v === undefined)) return;
    const score =
      values.reduce((sum, v) => sum! + v!, 0n)! -
      gasToOut(GAS_MODEL.base + (branches - 1) * GAS_MODEL.branch);
    if (best === undefined || score > best) best = score;
  };
  for (const [i, a] of paths.entries())
    for (const [j, b] of paths.entries()) {
      if (j <= i || !disjoint(a, b)) continue;
      for (let x = 1; x < 100; x++) offer([value(a, share(x)), value(b, amountIn - share(x))], 2);
      for (const [k, c] of paths.entries()) {
        if (k <= j || !disjoint(a, b, c)) continue;
        for (let x = 5; x < 100; x += 5)
          for (let y = 5; x + y < 100; y += 5)
            offer([value(a, share(x)), value(b, share(y)), value(c, amountIn - share(x) - share(y))], 3);
      }
    }
  return best ?? -(2n ** 255n);
}

describe("split ceiling", () => {
  it("is never below what any split scores, from dust to draining trades, tiny pools at better prices included", () => {
    const reserve = fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(reserve, reserve), { minLength: 2, maxLength: 4 }),
        fc.array(fc.tuple(fc.boolean(), reserve, reserve), { minLength: 0, maxLength: 2 }),
        fc.bigInt({ min: 1n, max: 10n ** 23n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (direct, viaC, amountIn, weiPerGas) => {
          let n = 0;
          const edges = [
            ...direct.flatMap(([r0, r1]) => v2(n++, A, B, r0, r1)),
            ...viaC.flatMap(([, r0, r1]) => [...v2(n++, A, C, r0, r1), ...v2(n++, C, B, r1, r0)]),
          ];
          const paths = enumeratePaths(edges, A, B, WETH);
          const gasToOut = (gas: number) => BigInt(gas) * weiPerGas;
          const curves = paths.map((path) => ({ path, pointAt: lazyPathCurve(path, amountIn) }));
          const best = Number(bestSplitScore(paths, amountIn, gasToOut));
          expect(splitCeiling(curves, amountIn, gasToOut)).toBeGreaterThanOrEqual(best);
          expect(splitCeiling(curves, amountIn, gasToOut, { withHalf: true })).toBeGreaterThanOrEqual(best);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it("is close to the best path alone when the trade is small against deep pools", () => {
    const edges = [...v2(0, A, B, 1000n * E18, 1000n * E18), ...v2(1, A, B, 900n * E18, 910n * E18)];
    // A tiny pool at a far better price, which can take almost nothing.
    edges.push(...v2(2, A, B, E18 / 1000n, E18 / 900n));
    const paths = enumeratePaths(edges, A, B, WETH);
    const amountIn = E18;
    const curves = paths.map((path) => ({ path, pointAt: lazyPathCurve(path, amountIn) }));
    const free = () => 0n;
    const bestAlone = Math.max(...paths.map((path) => Number(quotePath(path, amountIn)?.amountOut ?? 0n)));
    const ceiling = splitCeiling(curves, amountIn, free);
    expect(ceiling).toBeGreaterThanOrEqual(bestAlone);
    // Within the best path's price impact (about 0.1%), not the tiny pool's 11% better price.
    expect((ceiling - bestAlone) / bestAlone).toBeLessThan(0.002);
    // The half point's chords take about half of that slack off.
    const tighter = splitCeiling(curves, amountIn, free, { withHalf: true });
    expect(tighter).toBeGreaterThanOrEqual(Number(bestSplitScore(paths, amountIn, free)));
    expect(tighter - bestAlone).toBeLessThan(0.6 * (ceiling - bestAlone));
  });

  it("proves a small trade unsplittable when many longer paths have better rates than their gas is worth", () => {
    // Two direct pools; twelve paths through C and D rate about 2.4% better and cost two hops more. Alone,
    // the direct pool wins; a split pays at least a second branch's hop and the branch itself, more than
    // the better rate is worth, however the long paths' rates are mixed with the direct ones' gas.
    const D = addr(0xd);
    const edges = [...v2(0, A, B, 1000n * E18, 1000n * E18), ...v2(1, A, B, 1000n * E18, 999n * E18)];
    let n = 2;
    for (let i = 0; i < 2; i++) edges.push(...v2(n++, A, C, 1000n * E18, 1010n * E18));
    for (let i = 0; i < 2; i++) edges.push(...v2(n++, C, D, 1000n * E18, 1010n * E18));
    for (let i = 0; i < 3; i++) edges.push(...v2(n++, D, B, 1000n * E18, 1010n * E18));
    const paths = enumeratePaths(edges, A, B, WETH);
    expect(paths.filter((path) => path.length === 3)).toHaveLength(12);
    const amountIn = E18;
    const curves = paths.map((path) => ({ path, pointAt: lazyPathCurve(path, amountIn) }));
    const gasToOut = (gas: number) => BigInt(gas) * 260_000_000_000n;
    const scores = paths.map((path) => {
      const point = quotePath(path, amountIn)!;
      return Number(point.amountOut - gasToOut(point.gas + GAS_MODEL.base));
    });
    const bestAlone = Math.max(...scores);
    expect(paths[scores.indexOf(bestAlone)]).toHaveLength(1);
    const ceiling = splitCeiling(curves, amountIn, gasToOut);
    expect(ceiling).toBeGreaterThanOrEqual(Number(bestSplitScore(paths, amountIn, gasToOut)));
    // Below the best path alone, so the search needs nothing more, though the best rates, and so the first
    // prices tried, are the long paths': at the winner's own rate their extra gas shows.
    expect(ceiling).toBeLessThan(bestAlone);
  });
});
