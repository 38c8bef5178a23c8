// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title ISettlerRegistry
/// @notice The on-chain registry naming a firm-quote aggregator's active settler per feature (after 0x's
///         Deployer, an ERC-721 whose `ownerOf(feature)` is the current Settler; it reverts when none is).
interface ISettlerRegistry {
    function ownerOf(uint256 feature) external view returns (address settler);
}
