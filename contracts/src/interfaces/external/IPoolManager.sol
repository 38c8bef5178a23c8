// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice A Uniswap V4 pool key, ABI-identical to v4-core's (`Currency` and `IHooks` are addresses).
struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// @title IPoolManager
/// @notice The part of the official Uniswap V4 PoolManager the executor calls. `swap` returns a
///         `BalanceDelta`: amount0 in the upper 128 bits, amount1 in the lower, from the caller's side
///         (negative = owed to the pool).
interface IPoolManager {
    struct SwapParams {
        bool zeroForOne;
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
    }

    function unlock(bytes calldata data) external returns (bytes memory);
    function swap(PoolKey memory key, SwapParams memory params, bytes calldata hookData)
        external
        returns (int256 swapDelta);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
}

/// @title IUnlockCallback
/// @notice Called by the PoolManager on whoever called `unlock`.
interface IUnlockCallback {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}
