// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IUniswapV3Pool
/// @notice The part of the official Uniswap V3 pool the executor calls.
interface IUniswapV3Pool {
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// @title IUniswapV3SwapCallback
/// @notice Called by a V3 pool on the swapper to collect the input.
interface IUniswapV3SwapCallback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}
