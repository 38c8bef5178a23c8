// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title TransientSlot
/// @notice EIP-1153 transient storage by slot (solc 0.8.26 has no `transient` variables yet).
library TransientSlot {
    function load(bytes32 slot) internal view returns (uint256 value) {
        assembly ("memory-safe") {
            value := tload(slot)
        }
    }

    function store(bytes32 slot, uint256 value) internal {
        assembly ("memory-safe") {
            tstore(slot, value)
        }
    }
}
