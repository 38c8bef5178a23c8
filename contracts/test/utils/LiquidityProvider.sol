// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {PoolKey} from "../../src/interfaces/external/IPoolManager.sol";
import {IPoolManagerFull, IV3PoolFull} from "./UniswapInterfaces.sol";

/// @notice Test-side liquidity provider for the official V3 pools and V4 PoolManager: pays V3 mint
///         callbacks and settles V4 liquidity deltas from its own balance (the test funds it).
contract LiquidityProvider {
    IPoolManagerFull public immutable poolManager;

    constructor(IPoolManagerFull poolManager_) {
        poolManager = poolManager_;
    }

    receive() external payable {}

    function mintV3(IV3PoolFull pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        pool.mint(address(this), tickLower, tickUpper, liquidity, "");
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        IV3PoolFull pool = IV3PoolFull(msg.sender);
        if (amount0Owed > 0) IERC20(pool.token0()).transfer(msg.sender, amount0Owed);
        if (amount1Owed > 0) IERC20(_token1(msg.sender)).transfer(msg.sender, amount1Owed);
    }

    function addV4(PoolKey memory key, int24 tickLower, int24 tickUpper, int256 liquidity) external {
        poolManager.unlock(abi.encode(key, tickLower, tickUpper, liquidity));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        (PoolKey memory key, int24 tickLower, int24 tickUpper, int256 liquidity) =
            abi.decode(data, (PoolKey, int24, int24, int256));
        (int256 delta,) = poolManager.modifyLiquidity(
            key, IPoolManagerFull.ModifyLiquidityParams(tickLower, tickUpper, liquidity, bytes32(0)), ""
        );
        _pay(key.currency0, delta >> 128);
        _pay(key.currency1, int256(int128(delta)));
        return "";
    }

    function _pay(address currency, int256 delta) private {
        if (delta >= 0) return;
        uint256 owed = uint256(-delta);
        if (currency == address(0)) {
            poolManager.settle{value: owed}();
        } else {
            poolManager.sync(currency);
            IERC20(currency).transfer(address(poolManager), owed);
            poolManager.settle();
        }
    }

    function _token1(address pool) private view returns (address token1) {
        (bool ok, bytes memory data) = pool.staticcall(abi.encodeWithSignature("token1()"));
        require(ok);
        token1 = abi.decode(data, (address));
    }
}
