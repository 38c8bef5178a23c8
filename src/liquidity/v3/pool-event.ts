import { priceOf } from "../concentrated/price-event.ts";
import type { FollowedLog, PoolEvent } from "../followed-state/pool-event.ts";

/** What a V3 pool's log (one of its `events`) does to it; keyed by the emitting address. */
export function v3EventOf(log: FollowedLog): { key: string; event: PoolEvent } {
  const args = log.args;
  const key = log.address.toLowerCase();
  switch (log.eventName) {
    case "Initialize":
      return {
        key,
        event: { name: "price", sqrtPriceX96: args.sqrtPriceX96 as bigint, tick: args.tick as number },
      };
    case "Swap":
      return { key, event: priceOf(args) };
    case "Mint":
    case "Burn": {
      const amount = args.amount as bigint;
      const delta = log.eventName === "Mint" ? amount : -amount;
      return {
        key,
        event: {
          name: "liquidity",
          tickLower: args.tickLower as number,
          tickUpper: args.tickUpper as number,
          delta,
        },
      };
    }
    default:
      // SetFeeProtocol: V3's protocol fee is taken out of the pool fee, not priced on top.
      return { key, event: { name: "none" } };
  }
}
