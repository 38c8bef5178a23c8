// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title PoolAddress
/// @notice Canonical Uniswap V2 pair and V3 pool addresses, derived by CREATE2 from the factory and the
///         official init code hash. The executor only ever talks to addresses derived here.
library PoolAddress {
    /// @notice The V2 pair of `tokenA` and `tokenB` (any order).
    function v2Pair(address factory, bytes32 initCodeHash, address tokenA, address tokenB)
        internal
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        return create2(factory, keccak256(abi.encodePacked(token0, token1)), initCodeHash);
    }

    /// @notice The V3 pool of `tokenA` and `tokenB` (any order) at fee tier `fee`.
    function v3Pool(address factory, bytes32 initCodeHash, address tokenA, address tokenB, uint24 fee)
        internal
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        return create2(factory, keccak256(abi.encode(token0, token1, fee)), initCodeHash);
    }

    function create2(address deployer, bytes32 salt, bytes32 initCodeHash) private pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", deployer, salt, initCodeHash)))));
    }
}
