import type { AbiEvent, Log } from "viem";

/** What one log does to a followed pool, decoded by its pool kind (`PoolKind.eventOf`). */
export type PoolEvent =
  | { name: "sync"; reserve0: bigint; reserve1: bigint }
  | { name: "price"; sqrtPriceX96: bigint; tick: number; liquidity?: bigint }
  | { name: "liquidity"; tickLower: number; tickUpper: number; delta: bigint }
  | { name: "protocolFee"; protocolFee: number }
  | { name: "none" };

/** A log of one of the pool kinds' events (`FOLLOWED_EVENTS`), decoded. */
export type FollowedLog = Log<bigint, number, false, AbiEvent, true> & {
  eventName: string;
  args: Record<string, unknown>;
};
