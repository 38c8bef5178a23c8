// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IUniswapV2Pair} from "../interfaces/external/IUniswapV2Pair.sol";
import {PoolAddress} from "../libraries/PoolAddress.sol";
import {V2Math} from "../libraries/V2Math.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title V2Hop
/// @notice Swaps through a canonical Uniswap V2 pair. The pair pays out to the executor or, when the next
///         hop is another V2 pair, straight to that pair.
abstract contract V2Hop is ExecutorBase {
    /// @notice The canonical pair of `tokenA` and `tokenB`.
    function _v2Pair(address tokenA, address tokenB) internal view returns (address) {
        return PoolAddress.v2Pair(v2Factory, v2PairInitCodeHash, tokenA, tokenB);
    }

    /// @param inputAtPair True when the previous hop already paid the input into this pair.
    /// @param payer When not address(0), the swap's caller, whose input is pulled straight into the pair
    ///        and must arrive whole (a fee-on-transfer input token is refused).
    /// @param to Where the pair sends its output.
    /// @return amountOut What the pair sent (a fee-on-transfer output token delivers less).
    function _swapV2(address tokenIn, address tokenOut, uint256 amountIn, bool inputAtPair, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address pair = _v2Pair(tokenIn, tokenOut);
        if (pair.code.length == 0) revert PoolNotDeployed(pair);
        if (payer != address(0)) SafeTransferLib.safeTransferFrom(tokenIn, payer, pair, amountIn);
        else if (!inputAtPair) SafeTransferLib.safeTransfer(tokenIn, pair, amountIn);
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pair).getReserves();
        bool zeroForOne = tokenIn < tokenOut;
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        // What the pair actually received: exact for fee-on-transfer intermediate tokens.
        uint256 received = SafeTransferLib.balanceOf(tokenIn, pair) - reserveIn;
        if (payer != address(0) && received != amountIn) revert UnsupportedInputToken(tokenIn, amountIn, received);
        amountOut = V2Math.getAmountOut(received, reserveIn, reserveOut);
        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IUniswapV2Pair(pair).swap(amount0Out, amount1Out, to, "");
    }
}
