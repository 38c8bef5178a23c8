// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IUniswapV3Pool, IUniswapV3SwapCallback} from "../interfaces/external/IUniswapV3Pool.sol";
import {PoolAddress} from "../libraries/PoolAddress.sol";
import {TransientSlot} from "../libraries/TransientSlot.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title V3Hop
/// @notice Swaps an exact input through a canonical Uniswap V3 pool. The swap callback is accepted only
///         from the CREATE2-derived pool the executor is swapping with at that moment, once.
abstract contract V3Hop is ExecutorBase, IUniswapV3SwapCallback {
    /// @dev TickMath.MIN_SQRT_RATIO + 1 and MAX_SQRT_RATIO - 1: no price limit.
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @param payer When not address(0), the swap's caller: the callback pulls the input from it straight
    ///        into the pool, and refuses a token that delivers less.
    /// @param to Who the pool pays: the executor, or the recipient on a branch's last hop when no fee is taken.
    /// @return amountOut What the pool sent.
    function _swapV3(address tokenIn, address tokenOut, uint24 fee, uint256 amountIn, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address pool = PoolAddress.v3Pool(v3Factory, v3PoolInitCodeHash, tokenIn, tokenOut, fee);
        if (pool.code.length == 0) revert PoolNotDeployed(pool);
        TransientSlot.store(V3_POOL_SLOT, uint160(pool));
        TransientSlot.store(V3_TOKEN_SLOT, uint160(tokenIn));
        if (payer != address(0)) TransientSlot.store(V3_PAYER_SLOT, uint160(payer));
        amountOut = _swapInPool(pool, tokenIn < tokenOut, amountIn, to);
        // Never left for a later hop: only this hop's callback may pull from the caller.
        if (payer != address(0)) TransientSlot.store(V3_PAYER_SLOT, 0);
    }

    /// @dev The pool's swap with no price limit; reverts unless the whole input was taken.
    function _swapInPool(address pool, bool zeroForOne, uint256 amountIn, address to)
        private
        returns (uint256 amountOut)
    {
        // forge-lint: disable-next-line(unsafe-typecast) amounts are uint128 branch amounts or pool outputs
        int256 specified = int256(amountIn);
        (int256 amount0, int256 amount1) = IUniswapV3Pool(pool).swap(
            to, zeroForOne, specified, zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT, ""
        );
        (int256 paid, int256 received) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (paid != specified) revert PartialFill(amountIn, paid);
        // forge-lint: disable-next-line(unsafe-typecast) exact input fully paid: the pool paid out, received <= 0
        amountOut = uint256(-received);
    }

    /// @notice Pays the pool that is being swapped with. Anyone else (an EOA, a fake pool, a canonical
    ///         pool of another fee tier or pair) is rejected, as is a second call.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        address pool = address(uint160(TransientSlot.load(V3_POOL_SLOT)));
        if (pool == address(0) || msg.sender != pool) revert UnauthorizedCallback(msg.sender);
        TransientSlot.store(V3_POOL_SLOT, 0);
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        address token = address(uint160(TransientSlot.load(V3_TOKEN_SLOT)));
        address payer = address(uint160(TransientSlot.load(V3_PAYER_SLOT)));
        if (payer == address(0)) {
            SafeTransferLib.safeTransfer(token, pool, owed);
            return;
        }
        TransientSlot.store(V3_PAYER_SLOT, 0);
        // No balance check of ours: the pool itself reverts (`IIA`) unless its balance grew by `owed`, so a
        // token that delivers less is refused all the same.
        SafeTransferLib.safeTransferFrom(token, payer, pool, owed);
    }
}
