// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title PairKey
/// @notice The unordered key of a token pair, so a fee override for (A, B) also applies to (B, A).
library PairKey {
    /// @notice The pair's tokens in ascending order.
    function sort(address tokenA, address tokenB) internal pure returns (address token0, address token1) {
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
    }

    /// @notice `keccak256(token0, token1)` with the tokens sorted.
    function key(address tokenA, address tokenB) internal pure returns (bytes32 k) {
        (address token0, address token1) = sort(tokenA, tokenB);
        assembly ("memory-safe") {
            mstore(0x00, shl(96, token0))
            mstore(0x14, shl(96, token1))
            k := keccak256(0x00, 0x28)
        }
    }
}
