// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title FeeMath
/// @notice Basis-point fees on an output amount.
library FeeMath {
    /// @notice No fee, service or builder, is ever above 50 bps (0.50%).
    uint16 internal constant MAX_FEE_BPS = 50;
    uint256 internal constant BPS = 10_000;

    /// @notice The bps actually charged: the lowest of the quoted cap, the on-chain policy and 50.
    function chargedBps(uint16 quoted, uint16 policy) internal pure returns (uint16 bps) {
        bps = quoted < policy ? quoted : policy;
        if (bps > MAX_FEE_BPS) bps = MAX_FEE_BPS;
    }

    /// @notice `amount * bps / 10000`, rounded down (in the user's favour).
    function fee(uint256 amount, uint16 bps) internal pure returns (uint256) {
        return (amount * bps) / BPS;
    }
}
