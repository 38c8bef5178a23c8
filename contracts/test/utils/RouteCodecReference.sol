// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../../src/interfaces/IExecutor.sol";

/// @notice The route validation as it was before it read each hop as one word (commit 12ea14d), verbatim:
///         `RouteCodec.t.sol` holds the current one to it, byte for byte of revert data.
library RouteCodecV1 {
    uint256 internal constant VERSION = 1;
    uint256 internal constant KIND_V2 = 1;
    uint256 internal constant KIND_V3 = 2;
    uint256 internal constant KIND_V4 = 3;
    uint256 internal constant MAX_BRANCHES = 3;
    uint256 internal constant MAX_HOPS = 3;

    uint256 internal constant HEADER_SIZE = 2;
    uint256 internal constant BRANCH_HEADER_SIZE = 17;
    uint256 internal constant V2_HOP_SIZE = 21;
    uint256 internal constant V3_HOP_SIZE = 24;
    uint256 internal constant V4_HOP_SIZE = 27;

    /// @dev The largest static V4 LP fee (100%); the dynamic-fee flag 0x800000 is above it.
    uint24 internal constant MAX_V4_FEE = 1_000_000;
    /// @dev v4-core's tick spacing bounds.
    int24 internal constant MAX_V4_TICK_SPACING = 32767;

    function validate(bytes calldata route, uint256 amountIn, address tokenOut) internal pure {
        uint256 length = route.length;
        if (length < HEADER_SIZE) revert IExecutor.MalformedRoute(length);
        if (u8(route, 0) != VERSION) revert IExecutor.UnsupportedRouteVersion(u8(route, 0));
        uint256 branchCount = u8(route, 1);
        if (branchCount == 0 || branchCount > MAX_BRANCHES) revert IExecutor.InvalidBranchCount(branchCount);

        uint256 offset = HEADER_SIZE;
        uint256 sum;
        for (uint256 b; b < branchCount; ++b) {
            if (offset + BRANCH_HEADER_SIZE > length) revert IExecutor.MalformedRoute(length);
            uint256 amount = u128(route, offset);
            if (amount == 0) revert IExecutor.ZeroBranchAmount(b);
            sum += amount;
            uint256 hopCount = u8(route, offset + 16);
            if (hopCount == 0 || hopCount > MAX_HOPS) revert IExecutor.InvalidHopCount(hopCount);
            offset += BRANCH_HEADER_SIZE;
            address last;
            for (uint256 h; h < hopCount; ++h) {
                last = addr(route, offset + 1);
                offset = _validateHop(route, offset);
            }
            if (last != tokenOut) revert IExecutor.BranchEndsInWrongCurrency(last, tokenOut);
        }
        if (offset != length) revert IExecutor.MalformedRoute(length);
        if (sum != amountIn) revert IExecutor.BranchAmountsMismatch(sum, amountIn);
    }

    /// @dev Checks the hop at `offset` fits and, for V4, that its key is static-fee with a valid spacing.
    /// @return The offset just past the hop.
    function _validateHop(bytes calldata route, uint256 offset) private pure returns (uint256) {
        uint256 length = route.length;
        if (offset + 1 > length) revert IExecutor.MalformedRoute(length);
        uint256 kind = u8(route, offset);
        uint256 end = offset + hopSize(kind);
        if (end > length) revert IExecutor.MalformedRoute(length);
        if (kind == KIND_V4) {
            uint24 fee = u24(route, offset + 21);
            int24 tickSpacing = i24(route, offset + 24);
            if (fee > MAX_V4_FEE || tickSpacing < 1 || tickSpacing > MAX_V4_TICK_SPACING) {
                revert IExecutor.InvalidV4PoolKey(fee, tickSpacing);
            }
        }
        return end;
    }

    /// @notice Size in bytes of a hop of `kind`; reverts `UnknownHopKind` for anything else.
    function hopSize(uint256 kind) internal pure returns (uint256) {
        if (kind == KIND_V2) return V2_HOP_SIZE;
        if (kind == KIND_V3) return V3_HOP_SIZE;
        if (kind == KIND_V4) return V4_HOP_SIZE;
        revert IExecutor.UnknownHopKind(kind);
    }

    // Readers. Callers validate lengths first; calldataload past the end reads zeros.

    function u8(bytes calldata data, uint256 offset) internal pure returns (uint256 value) {
        assembly ("memory-safe") {
            value := shr(248, calldataload(add(data.offset, offset)))
        }
    }

    function u24(bytes calldata data, uint256 offset) internal pure returns (uint24 value) {
        assembly ("memory-safe") {
            value := shr(232, calldataload(add(data.offset, offset)))
        }
    }

    function i24(bytes calldata data, uint256 offset) internal pure returns (int24 value) {
        assembly ("memory-safe") {
            value := signextend(2, shr(232, calldataload(add(data.offset, offset))))
        }
    }

    function u128(bytes calldata data, uint256 offset) internal pure returns (uint256 value) {
        assembly ("memory-safe") {
            value := shr(128, calldataload(add(data.offset, offset)))
        }
    }

    function addr(bytes calldata data, uint256 offset) internal pure returns (address value) {
        assembly ("memory-safe") {
            value := shr(96, calldataload(add(data.offset, offset)))
        }
    }
}

/// @notice Exposes the previous validation for the differential fuzz tests.
contract RouteCodecReference {
    function validate(bytes calldata route, uint256 amountIn, address tokenOut) external pure {
        RouteCodecV1.validate(route, amountIn, tokenOut);
    }
}
