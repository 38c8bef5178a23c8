import { parseAbiItem } from "viem";

/**
 * The events by which a canonical V3 pool changes what a swap reads (its code is known: the index admits
 * only pools at their factory's CREATE2 address). Collect, Flash and the observation events move no price,
 * liquidity, tick or fee.
 */
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
