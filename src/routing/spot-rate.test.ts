import fc from "fast-check";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { amountIn, syntheticPool } from "../liquidity/concentrated/synthetic-pools.test-support.ts";
import type { IndexedPool } from "../liquidity/pool-index/pool.ts";
import type { PoolSnapshot } from "../liquidity/read/load-pool-states.ts";
import { edgesOf } from "./edge.ts";

const address = "0x0000000000000000000000000000000000000100" as Address;
const pool = { kind: "v3", address, token0: address, token1: address } as unknown as IndexedPool;

/** Every amount's exact output is at most the spot rate times the amount (the split search prunes on it). */
function expectBoundedBySpotRate(snapshot: PoolSnapshot, amounts: bigint[]): void {
  for (const edge of edgesOf(pool, snapshot)) {
    for (const amount of amounts) {
      const hop = edge.quote(amount);
      if (!hop.ok) continue;
      // The same relative margin the search leaves for the float's rounding.
      expect(Number(hop.amountOut)).toBeLessThanOrEqual(edge.spotRate * Number(amount) * (1 + 1e-9));
    }
  }
}

describe("spot rate", () => {
  it("bounds every V2 quote's average rate", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.array(amountIn, { minLength: 1, maxLength: 10 }),
        (reserve0, reserve1, amounts) =>
          expectBoundedBySpotRate({ kind: "v2", address, blockNumber: 1n, reserve0, reserve1 }, amounts),
      ),
      { numRuns: 300 },
    );
  });

  it("bounds every V3 and V4 quote's average rate, with the LP and protocol fees", () => {
    fc.assert(
      fc.property(
        syntheticPool,
        fc.constantFrom(100, 500, 3000, 10000),
        fc.integer({ min: 0, max: 1000 }),
        fc.array(amountIn, { minLength: 1, maxLength: 10 }),
        (state, fee, protocolFee, amounts) => {
          expectBoundedBySpotRate({ ...state, kind: "v3", address, blockNumber: 1n, fee }, amounts);
          expectBoundedBySpotRate(
            {
              ...state,
              kind: "v4",
              poolId: `0x${"1".repeat(64)}`,
              blockNumber: 1n,
              lpFee: fee,
              protocolFee: protocolFee | (protocolFee << 12),
            },
            amounts,
          );
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  it("is the marginal rate: a tiny amount in a deep pool gets almost exactly it", () => {
    const e18 = 10n ** 18n;
    const [sell0] = edgesOf(pool, {
      kind: "v2",
      address,
      blockNumber: 1n,
      reserve0: 1_000_000n * e18,
      reserve1: 2_000_000n * e18,
    });
    expect(sell0!.spotRate).toBeCloseTo(2 * 0.997, 12);
    const hop = sell0!.quote(e18);
    expect(hop.ok && Number(hop.amountOut) / 1e18).toBeCloseTo(2 * 0.997, 5);
  });
});
