import type { Address } from "viem";
import { priceOf } from "../concentrated/price-event.ts";
import type { FollowedLog, PoolEvent } from "../followed-state/pool-event.ts";

/**
 * What a PoolManager log (one of `V4_FOLLOWED_EVENTS`) does to the pool its `id` names, or undefined for
 * such a log from another contract than `poolManager`.
 */
export function v4EventOf(
  log: FollowedLog,
  poolManager: Address | undefined,
): { key: string; event: PoolEvent } | undefined {
  if (!poolManager || log.address.toLowerCase() !== poolManager.toLowerCase()) return undefined;
  const args = log.args;
  return { key: (args.id as string).toLowerCase(), event: v4Event(log.eventName, args) };
}

function v4Event(name: string, args: Record<string, unknown>): PoolEvent {
  switch (name) {
    case "Initialize":
      return {
        name: "price",
        sqrtPriceX96: args.sqrtPriceX96 as bigint,
        tick: args.tick as number,
        liquidity: 0n,
      };
    case "Swap":
      return priceOf(args);
    case "ModifyLiquidity":
      return {
        name: "liquidity",
        tickLower: args.tickLower as number,
        tickUpper: args.tickUpper as number,
        delta: args.liquidityDelta as bigint,
      };
    default:
      return { name: "protocolFee", protocolFee: args.protocolFee as number };
  }
}
