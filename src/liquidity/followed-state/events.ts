import { parseAbiItem } from "viem";
import { INITIALIZE, V4_MODIFY_LIQUIDITY, V4_SWAP } from "../pool-index/events.ts";

/**
 * Every event by which a canonical V2 pair, V3 pool or the V4 PoolManager changes what a swap reads. Their
 * code is known (the index admits only pools at their factory's CREATE2 address or the PoolManager's key
 * hash), so this list is closed: V2's Mint, Burn and Swap each end in a Sync; V3's Collect, Flash and
 * observation events and V4's Donate move no price, liquidity, tick or fee.
 */
export const V2_SYNC = parseAbiItem("event Sync(uint112 reserve0, uint112 reserve1)");
export const V3_INITIALIZE = parseAbiItem("event Initialize(uint160 sqrtPriceX96, int24 tick)");
export const V3_SWAP = parseAbiItem(
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
);
export const V3_MINT = parseAbiItem(
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
);
export const V3_BURN = parseAbiItem(
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
);
export const V3_SET_FEE_PROTOCOL = parseAbiItem(
  "event SetFeeProtocol(uint8 feeProtocol0Old, uint8 feeProtocol1Old, uint8 feeProtocol0New, uint8 feeProtocol1New)",
);
export const V4_PROTOCOL_FEE_UPDATED = parseAbiItem(
  "event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)",
);

export const FOLLOWED_EVENTS = [
  V2_SYNC,
  V3_INITIALIZE,
  V3_SWAP,
  V3_MINT,
  V3_BURN,
  V3_SET_FEE_PROTOCOL,
  INITIALIZE,
  V4_SWAP,
  V4_MODIFY_LIQUIDITY,
  V4_PROTOCOL_FEE_UPDATED,
] as const;
