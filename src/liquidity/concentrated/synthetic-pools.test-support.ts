import fc from "fast-check";
import { getSqrtPriceAtTick, MAX_TICK, MIN_TICK } from "../math/tick-math.ts";
import type { ConcentratedPoolState } from "./pool-state.ts";
import { stateFromPositions } from "./state-from-positions.ts";

/**
 * fast-check arbitraries for concentrated pools shaped like the devnet's: a wide or full-range position
 * and narrower ones around the price, any spacing the pools allow, any price inside a tick.
 */
export const syntheticPool: fc.Arbitrary<ConcentratedPoolState> = fc
  .record({
    tickSpacing: fc.constantFrom(1, 10, 50, 60, 200),
    tick: fc.integer({ min: -200_000, max: 200_000 }),
    offset: fc.bigInt({ min: 0n, max: 1_000_000n }),
    positions: fc.array(
      fc.record({
        below: fc.integer({ min: 1, max: 3000 }),
        above: fc.integer({ min: 1, max: 3000 }),
        full: fc.boolean(),
        liquidity: fc.bigInt({ min: 10n ** 12n, max: 10n ** 24n }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ tickSpacing, tick, offset, positions }) => {
    const align = (t: number) => Math.floor(t / tickSpacing) * tickSpacing;
    const low = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing;
    const high = Math.floor(MAX_TICK / tickSpacing) * tickSpacing;
    const lower = getSqrtPriceAtTick(tick);
    const width = getSqrtPriceAtTick(tick + 1) - lower;
    return stateFromPositions(
      lower + (offset * width) / 1_000_001n,
      tickSpacing,
      positions.map((p) =>
        p.full
          ? { tickLower: low, tickUpper: high, liquidity: p.liquidity }
          : {
              tickLower: Math.max(low, align(tick - p.below * tickSpacing)),
              tickUpper: Math.min(high, align(tick + p.above * tickSpacing) + tickSpacing),
              liquidity: p.liquidity,
            },
      ),
    );
  });

/** Input amounts from dust to far past what the pool holds (which ends at the price limit). */
export const amountIn = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 6n }),
  fc.bigInt({ min: 1n, max: 10n ** 22n }),
  fc.bigInt({ min: 1n, max: 10n ** 36n }),
);
