import type { PoolEvent } from "../followed-state/pool-event.ts";

/** A Swap event (V3 or V4) carries the pool's price, tick and in-range liquidity after it, exactly as stored. */
export const priceOf = (args: Record<string, unknown>): PoolEvent => ({
  name: "price",
  sqrtPriceX96: args.sqrtPriceX96 as bigint,
  tick: args.tick as number,
  liquidity: args.liquidity as bigint,
});
