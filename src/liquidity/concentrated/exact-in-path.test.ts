import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getSqrtPriceAtTick } from "../math/tick-math.ts";
import { ExactInPath } from "./exact-in-path.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";
import { stateFromPositions } from "./state-from-positions.ts";
import { stepEdges } from "./step-edges.ts";
import { swapExactIn } from "./swap-exact-in.ts";
import { amountIn, syntheticPool } from "./synthetic-pools.test-support.ts";

const edges = (pool: ConcentratedPoolState, zeroForOne: boolean, fee: bigint, count: number) =>
  stepEdges(pool, "v4", zeroForOne, fee, count).edges;

describe("ExactInPath (many amounts on one pool)", () => {
  it("gives exactly the single-quote result for every amount, in any order, including step edges", () => {
    fc.assert(
      fc.property(
        syntheticPool,
        fc.boolean(),
        fc.constantFrom(100n, 3000n, 10000n),
        fc.array(amountIn, { minLength: 1, maxLength: 20 }),
        (pool, zeroForOne, fee, random) => {
          const edgeAmounts = edges(pool, zeroForOne, fee, 6).flatMap((c) => [c - 1n, c, c + 1n]);
          const amounts = [...random, ...edgeAmounts].filter((a) => a > 0n);
          const path = new ExactInPath(pool, "v4", zeroForOne, fee);
          for (const a of amounts) expect(path.quote(a)).toEqual(swapExactIn(pool, "v4", zeroForOne, fee, a));
          // Ascending, as a split search's grid asks: each new amount extends the path by its own step.
          const ascending = new ExactInPath(pool, "v3", zeroForOne, fee);
          for (const a of [...amounts].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)))
            expect(ascending.quote(a)).toEqual(swapExactIn(pool, "v3", zeroForOne, fee, a));
        },
      ),
      { numRuns: 150 },
    );
  }, 30_000);

  it("stops at the first boundary an amount reaches exactly, before a free crossing of an empty range", () => {
    // Two disjoint ranges: selling token0 from tick 50 crosses 0, an empty gap of whole words, then -1000.
    const pool = stateFromPositions(getSqrtPriceAtTick(50), 1, [
      { tickLower: -2000, tickUpper: -1000, liquidity: 10n ** 18n },
      { tickLower: 0, tickUpper: 100, liquidity: 10n ** 18n },
    ]);
    const [first] = edges(pool, true, 3000n, 1);
    const path = new ExactInPath(pool, "v4", true, 3000n);
    path.quote(10n ** 30n); // build the whole path first, gap boundaries included
    for (const a of [first! - 1n, first!, first! + 1n, 10n ** 30n]) {
      expect(path.quote(a)).toEqual(swapExactIn(pool, "v4", true, 3000n, a));
    }
    const atEdge = path.quote(first!);
    expect(atEdge.status === "filled" && atEdge.after.tick).toBe(-1);
  });
});
