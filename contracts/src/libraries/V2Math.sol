// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title V2Math
/// @notice Uniswap V2's constant-product output for an exact input, with its 0.3% LP fee.
library V2Math {
    /// @notice Output of the pair for `amountIn`, exactly as UniswapV2Library.getAmountOut computes it.
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) internal pure returns (uint256) {
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }
}
