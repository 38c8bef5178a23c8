// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice Builds executor routes (version 1) in tests, mirroring `src/routing/route-encoding.ts`.
library Routes {
    function v2(address currencyOut) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(1), currencyOut);
    }

    function v3(address currencyOut, uint24 fee) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(2), currencyOut, fee);
    }

    function v4(address currencyOut, uint24 fee, int24 tickSpacing) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(3), currencyOut, fee, tickSpacing);
    }

    function branch(uint256 amountIn, bytes memory hop1) internal pure returns (bytes memory) {
        return abi.encodePacked(uint128(amountIn), uint8(1), hop1);
    }

    function branch(uint256 amountIn, bytes memory hop1, bytes memory hop2) internal pure returns (bytes memory) {
        return abi.encodePacked(uint128(amountIn), uint8(2), hop1, hop2);
    }

    function branch(uint256 amountIn, bytes memory hop1, bytes memory hop2, bytes memory hop3)
        internal
        pure
        returns (bytes memory)
    {
        return abi.encodePacked(uint128(amountIn), uint8(3), hop1, hop2, hop3);
    }

    function route(bytes memory b1) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(1), uint8(1), b1);
    }

    function route(bytes memory b1, bytes memory b2) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(1), uint8(2), b1, b2);
    }

    function route(bytes memory b1, bytes memory b2, bytes memory b3) internal pure returns (bytes memory) {
        return abi.encodePacked(uint8(1), uint8(3), b1, b2, b3);
    }

    /// @notice A one-branch, one-hop route.
    function single(uint256 amountIn, bytes memory hop) internal pure returns (bytes memory) {
        return route(branch(amountIn, hop));
    }
}
