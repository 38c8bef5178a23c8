import { parseAbiItem } from "viem";
import { INITIALIZE, V4_MODIFY_LIQUIDITY, V4_SWAP } from "../pool-index/events.ts";

export const V4_PROTOCOL_FEE_UPDATED = parseAbiItem(
  "event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)",
);

/**
 * The PoolManager's events that change what a swap over a hook-free, static-fee pool reads (the index
 * admits only pools the PoolManager hashed from their key); Donate moves no price, liquidity, tick or fee.
 */
export const V4_FOLLOWED_EVENTS = [
  INITIALIZE,
  V4_SWAP,
  V4_MODIFY_LIQUIDITY,
  V4_PROTOCOL_FEE_UPDATED,
] as const;
