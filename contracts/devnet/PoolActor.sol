// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {PoolKey} from "../src/interfaces/external/IPoolManager.sol";

interface IActorPair {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 timestamp);
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
    function mint(address to) external returns (uint256 liquidity);
    function burn(address to) external returns (uint256 amount0, uint256 amount1);
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

interface IActorV3Pool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    function burn(int24 tickLower, int24 tickUpper, uint128 amount) external returns (uint256, uint256);
    function swap(address recipient, bool zeroForOne, int256 amount, uint160 limit, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

interface IActorManager {
    struct ModifyLiquidityParams {
        int24 tickLower;
        int24 tickUpper;
        int256 liquidityDelta;
        bytes32 salt;
    }

    struct SwapParams {
        bool zeroForOne;
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
    }

    function unlock(bytes calldata data) external returns (bytes memory);
    function modifyLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        returns (int256 callerDelta, int256 feesAccrued);
    function swap(PoolKey memory key, SwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
}

/// @title PoolActor
/// @notice Devnet only: swaps on, and adds and removes liquidity to, the official V2 pairs, V3 pools and the
///         V4 PoolManager directly, paying from its own balances (funded by whoever drives it), so a test
///         can drive random pool activity in many transactions per block. Not a router: no slippage
///         checks, and anyone may call it.
contract PoolActor {
    uint160 private constant MIN_SQRT = 4295128739 + 1;
    uint160 private constant MAX_SQRT = 1461446703485210103287273052203988822378723970342 - 1;

    IActorManager public immutable manager;

    constructor(IActorManager manager_) {
        manager = manager_;
    }

    receive() external payable {}

    function v2Swap(IActorPair pair, bool zeroForOne, uint256 amountIn) external {
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 out = (amountIn * 997 * reserveOut) / (reserveIn * 1000 + amountIn * 997);
        IERC20(zeroForOne ? pair.token0() : pair.token1()).transfer(address(pair), amountIn);
        pair.swap(zeroForOne ? 0 : out, zeroForOne ? out : 0, address(this), "");
    }

    function v2Add(IActorPair pair, uint256 amount0, uint256 amount1) external {
        IERC20(pair.token0()).transfer(address(pair), amount0);
        IERC20(pair.token1()).transfer(address(pair), amount1);
        pair.mint(address(this));
    }

    /// @param shareBps The part of this actor's LP tokens to burn.
    function v2Remove(IActorPair pair, uint256 shareBps) external {
        pair.transfer(address(pair), (pair.balanceOf(address(this)) * shareBps) / 10_000);
        pair.burn(address(this));
    }

    function v3Swap(IActorV3Pool pool, bool zeroForOne, int256 amount) external {
        pool.swap(address(this), zeroForOne, amount, zeroForOne ? MIN_SQRT : MAX_SQRT, "");
    }

    function v3Mint(IActorV3Pool pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        pool.mint(address(this), tickLower, tickUpper, liquidity, "");
    }

    function v3Burn(IActorV3Pool pool, int24 tickLower, int24 tickUpper, uint128 liquidity) external {
        pool.burn(tickLower, tickUpper, liquidity);
    }

    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external {
        IActorV3Pool pool = IActorV3Pool(msg.sender);
        if (amount0 > 0) IERC20(pool.token0()).transfer(msg.sender, uint256(amount0));
        if (amount1 > 0) IERC20(pool.token1()).transfer(msg.sender, uint256(amount1));
    }

    function uniswapV3MintCallback(uint256 amount0, uint256 amount1, bytes calldata) external {
        IActorV3Pool pool = IActorV3Pool(msg.sender);
        if (amount0 > 0) IERC20(pool.token0()).transfer(msg.sender, amount0);
        if (amount1 > 0) IERC20(pool.token1()).transfer(msg.sender, amount1);
    }

    /// @param amountSpecified Negative for an exact input, as the PoolManager takes it.
    function v4Swap(PoolKey calldata key, bool zeroForOne, int256 amountSpecified) external {
        manager.unlock(abi.encode(true, key, zeroForOne, amountSpecified, int24(0), int24(0)));
    }

    function v4Modify(PoolKey calldata key, int24 tickLower, int24 tickUpper, int256 liquidityDelta) external {
        manager.unlock(abi.encode(false, key, false, liquidityDelta, tickLower, tickUpper));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(manager), "not the manager");
        (bool swap, PoolKey memory key, bool zeroForOne, int256 amount, int24 tickLower, int24 tickUpper) =
            abi.decode(data, (bool, PoolKey, bool, int256, int24, int24));
        int256 delta;
        if (swap) {
            delta = manager.swap(
                key, IActorManager.SwapParams(zeroForOne, amount, zeroForOne ? MIN_SQRT : MAX_SQRT), ""
            );
        } else {
            (delta,) = manager.modifyLiquidity(
                key, IActorManager.ModifyLiquidityParams(tickLower, tickUpper, amount, bytes32(0)), ""
            );
        }
        _settle(key.currency0, delta >> 128);
        _settle(key.currency1, int256(int128(delta)));
        return "";
    }

    function _settle(address currency, int256 delta) private {
        if (delta > 0) {
            manager.take(currency, address(this), uint256(delta));
        } else if (delta < 0) {
            uint256 owed = uint256(-delta);
            if (currency == address(0)) {
                manager.settle{value: owed}();
            } else {
                manager.sync(currency);
                IERC20(currency).transfer(address(manager), owed);
                manager.settle();
            }
        }
    }
}
