import fc from "fast-check";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { amountIn, syntheticPool } from "../liquidity/concentrated/synthetic-pools.test-support.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import { getAmountOut } from "../liquidity/v2/get-amount-out.ts";
import { type Edge, edgesOf } from "./edge.ts";
import { priceImpactBps } from "./price-impact.ts";

const address = "0x0000000000000000000000000000000000000100" as Address;
const pool = { kind: "v3", address, token0: address, token1: address } as unknown as IndexedPool;
const e18 = 10n ** 18n;

/** The impact of selling `amount` through one edge, from the edge's own exact quote. */
function impactOf(edge: Edge, amount: bigint): number | undefined {
  const hop = edge.quote(amount);
  if (!hop.ok) return undefined;
  return priceImpactBps([{ path: [edge], amountIn: amount, amountOut: hop.amountOut }]);
}

const v2 = (reserve0: bigint, reserve1: bigint): PoolSnapshot => ({
  kind: "v2",
  address,
  blockNumber: 1n,
  reserve0,
  reserve1,
});

describe("price impact", () => {
  it("is exactly the V2 pair's shortfall against 997·reserveOut/(1000·reserveIn), rounded half up", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        (reserve0, reserve1, amount) => {
          const out = getAmountOut(amount, reserve0, reserve1);
          fc.pre(out > 0n);
          // ideal = amount·997·r1 / (1000·r0); impact = 1 − out/ideal, in bps, rounded half up.
          const idealNum = amount * 997n * reserve1;
          const shortfall = (idealNum - out * 1000n * reserve0) * 10_000n;
          const expected = Number((2n * shortfall + idealNum) / (2n * idealNum));
          const [sell0] = edgesOf(pool, v2(reserve0, reserve1));
          expect(impactOf(sell0!, amount)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is 0 for dust in a deep pool and about the trade's share of the reserve for a large one", () => {
    const [sell0] = edgesOf(pool, v2(1_000_000n * e18, 2_000_000n * e18));
    expect(impactOf(sell0!, e18)).toBe(0);
    // Selling 1% of the input reserve: 1 − 1/(1 + 0.01·0.997) ≈ 98.7 bps.
    expect(impactOf(sell0!, 10_000n * e18)).toBe(99);
  });

  it("lies between 0 and 10,000 bps for every V3 and V4 quote, LP and protocol fees included", () => {
    fc.assert(
      fc.property(
        syntheticPool,
        fc.constantFrom(100, 500, 3000, 10000),
        fc.integer({ min: 0, max: 1000 }),
        amountIn,
        (state, fee, protocolFee, amount) => {
          const snapshots: PoolSnapshot[] = [
            { ...state, kind: "v3", address, blockNumber: 1n, fee },
            {
              ...state,
              kind: "v4",
              poolId: `0x${"1".repeat(64)}`,
              blockNumber: 1n,
              lpFee: fee,
              protocolFee: protocolFee | (protocolFee << 12),
            },
          ];
          for (const snapshot of snapshots)
            for (const edge of edgesOf(pool, snapshot)) {
              const impact = impactOf(edge, amount);
              if (impact === undefined) continue;
              expect(impact).toBeGreaterThanOrEqual(0);
              expect(impact).toBeLessThanOrEqual(10_000);
            }
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  it("weighs split branches by their inputs and multiplies a path's hop rates", () => {
    const [a] = edgesOf(pool, v2(1_000_000n * e18, 1_000_000n * e18));
    const [b] = edgesOf(pool, v2(1_000_000n * e18, 1_000_000n * e18));
    // Two identical deep pools, half each: the same impact as one pool taking half the amount.
    const half = 5_000n * e18;
    const out = (edge: Edge) => {
      const hop = edge.quote(half);
      return hop.ok ? hop.amountOut : 0n;
    };
    const split = priceImpactBps([
      { path: [a!], amountIn: half, amountOut: out(a!) },
      { path: [b!], amountIn: half, amountOut: out(b!) },
    ]);
    expect(split).toBe(impactOf(a!, half));
    // Two hops through 1:1 pools: the rate is 0.997², so a dust trade still has 0 impact.
    const hop1 = a!.quote(e18);
    const hop2 = hop1.ok ? b!.quote(hop1.amountOut) : hop1;
    expect(hop2.ok && priceImpactBps([{ path: [a!, b!], amountIn: e18, amountOut: hop2.amountOut }])).toBe(0);
  });
});
