import fc from "fast-check";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { syntheticPool } from "../liquidity/concentrated/synthetic-pools.test-support.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import { type Edge, edgesOf } from "./edge.ts";
import { enumeratePaths } from "./paths.ts";
import { allocationScorer, type SearchCurve, searchCurves } from "./search-curve.ts";
import { addingPartners, PARTNER_SHARES } from "./split-partners.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const [A, B, C, WETH] = [addr(0xa), addr(0xb), addr(0xc), addr(0xe)];

/** A pool between two of A, B, C: V2 reserves, or a V3 pool's concentrated state with its fee. */
const poolState = fc.oneof(
  fc
    .tuple(fc.bigInt({ min: 10n ** 12n, max: 10n ** 26n }), fc.bigInt({ min: 10n ** 12n, max: 10n ** 26n }))
    .map(([reserve0, reserve1]) => ({ kind: "v2" as const, reserve0, reserve1 })),
  fc
    .tuple(syntheticPool, fc.constantFrom(100, 500, 3000, 10000))
    .map(([state, fee]) => ({ kind: "v3" as const, state, fee })),
);
const pair = fc.constantFrom<[Address, Address]>([A, B], [A, C], [C, B]);

function edgesOfPools(
  pools: { pair: [Address, Address]; state: typeof poolState extends fc.Arbitrary<infer S> ? S : never }[],
): Edge[] {
  return pools.flatMap(({ pair: [token0, token1], state }, n) => {
    const address = addr(0x100 + n);
    const pool = { kind: state.kind, address, token0, token1, fee: 3000 } as unknown as IndexedPool;
    const snapshot: PoolSnapshot =
      state.kind === "v2"
        ? { kind: "v2", address, blockNumber: 1n, reserve0: state.reserve0, reserve1: state.reserve1 }
        : { ...state.state, kind: "v3", address, blockNumber: 1n, fee: state.fee };
    return edgesOf(pool, snapshot);
  });
}

const universe = fc.record({
  pools: fc.array(fc.record({ pair, state: poolState }), { minLength: 2, maxLength: 7 }),
  amountIn: fc.bigInt({ min: 1n, max: 10n ** 25n }),
  weiPerGas: fc.bigInt({ min: 0n, max: 10n ** 12n }),
});

describe("a path's ceiling", () => {
  it("is never below its value at any share it fills, V2 and V3 hops, one to three of them", () => {
    fc.assert(
      fc.property(
        universe,
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
        (u, percents) => {
          const gasToOut = (gas: number) => BigInt(gas) * u.weiPerGas;
          const curves = searchCurves(
            enumeratePaths(edgesOfPools(u.pools), A, B, WETH),
            u.amountIn,
            gasToOut,
          );
          for (const curve of curves)
            for (const percent of percents) {
              const value = curve.valueAt(percent);
              if (value !== undefined) expect(curve.ceilingAt(percent)).toBeGreaterThanOrEqual(Number(value));
            }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});

describe("adding partners", () => {
  it("chooses the same partners as quoting every path, whatever it skips by the ceiling", () => {
    fc.assert(
      fc.property(universe, fc.integer({ min: 1, max: 3 }), (u, count) => {
        const gasToOut = (gas: number) => BigInt(gas) * u.weiPerGas;
        const curves = searchCurves(enumeratePaths(edgesOfPools(u.pools), A, B, WETH), u.amountIn, gasToOut);
        const unbounded: SearchCurve[] = curves.map((curve) => ({ ...curve, ceilingAt: () => Infinity }));
        const scoreOf = allocationScorer(gasToOut);
        for (const [i, anchor] of curves.entries()) {
          const chosen = addingPartners(curves, [[anchor, 100]], count, scoreOf, gasToOut);
          const every = addingPartners(unbounded, [[unbounded[i]!, 100]], count, scoreOf, gasToOut);
          expect(chosen.map((curve) => curve.index)).toEqual(every.map((curve) => curve.index));
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("skips quoting a path that cannot beat the partners held", () => {
    // Two deep pools at the same price and one at half of it: the third cannot be the one partner kept.
    const e18 = 10n ** 18n;
    const edges = edgesOfPools([
      { pair: [A, B], state: { kind: "v2", reserve0: 1000n * e18, reserve1: 1000n * e18 } },
      { pair: [A, B], state: { kind: "v2", reserve0: 1000n * e18, reserve1: 1000n * e18 } },
      { pair: [A, B], state: { kind: "v2", reserve0: 1000n * e18, reserve1: 500n * e18 } },
    ]);
    const gasToOut = () => 0n;
    const curves = searchCurves(enumeratePaths(edges, A, B, WETH), e18, gasToOut);
    const quoted: number[] = [];
    const watched = curves.map((curve) => ({
      ...curve,
      valueAt: (percent: number) => {
        quoted.push(curve.index);
        return curve.valueAt(percent);
      },
    }));
    const [partner] = addingPartners(
      watched.slice(1),
      [[watched[0]!, 100]],
      1,
      allocationScorer(gasToOut),
      gasToOut,
    );
    expect(partner!.index).toBe(1);
    expect(quoted.filter((index) => index === 2)).toHaveLength(0);
    expect(quoted.filter((index) => index === 1)).toHaveLength(PARTNER_SHARES.length);
  });
});
