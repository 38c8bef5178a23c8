// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title StandInSettlerRegistry
/// @notice Devnet only: the on-chain registry naming the aggregator-b stand-in's active settler per feature
///         (after 0x's Deployer, whose `ownerOf(feature)` is the current Settler). A firm quote is trusted
///         only if the settler it calls is the one named here at the quote block.
contract StandInSettlerRegistry {
    address public immutable owner;
    mapping(uint128 feature => address settler) private _active;

    event SettlerActivated(uint128 indexed feature, address indexed settler);

    error NotOwner();
    error NoSettler(uint128 feature);

    constructor() {
        owner = msg.sender;
    }

    function setActive(uint128 feature, address settler) external {
        if (msg.sender != owner) revert NotOwner();
        _active[feature] = settler;
        emit SettlerActivated(feature, settler);
    }

    /// @notice The settler active for `feature` (reverts when none is).
    function ownerOf(uint256 feature) external view returns (address settler) {
        settler = _active[uint128(feature)];
        if (settler == address(0)) revert NoSettler(uint128(feature));
    }
}
