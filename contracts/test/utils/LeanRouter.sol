// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IUniswapV2Pair} from "../../src/interfaces/external/IUniswapV2Pair.sol";

/// @notice Gas tests only: a router that writes nothing from zero, as real aggregators' direct paths do
///         (1inch's `unoswap`, KyberSwap's simple mode): it moves the input from its caller straight into the V2
///         pair named in the calldata and has the pair pay the recipient. No fee, no custody, no approval of its
///         own, so no refund of its own either: against it the executor's refunds count in full (the devnet
///         stand-ins' own writes from zero fill the refund cap instead).
contract LeanRouter {
    error InsufficientOutput(uint256 amountOut, uint256 minOut);

    function swap(address tokenIn, uint256 amountIn, address pair, bool zeroForOne, address recipient, uint256 minOut)
        external
        returns (uint256 amountOut)
    {
        SafeTransferLib.safeTransferFrom(tokenIn, msg.sender, pair, amountIn);
        (uint256 reserve0, uint256 reserve1,) = IUniswapV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 withFee = amountIn * 997;
        amountOut = (withFee * reserveOut) / (reserveIn * 1000 + withFee);
        if (amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
        (uint256 out0, uint256 out1) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IUniswapV2Pair(pair).swap(out0, out1, recipient, "");
    }
}
