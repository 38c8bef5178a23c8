// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../interfaces/IExecutor.sol";

/// @title RouteCodec
/// @notice Reads and validates the executor's route encoding, version 1 (`contracts/ROUTE_ENCODING.md`):
///
///     route  = version:u8(0x01) branchCount:u8(1..3) branch{branchCount}
///     branch = amountIn:u128 hopCount:u8(1..3) hop{hopCount}
///     hop    = kind:u8 currencyOut:address params
///              kind 1 (V2): no params                          21 bytes
///              kind 2 (V3): fee:u24                            24 bytes
///              kind 3 (V4): fee:u24 tickSpacing:i24            27 bytes
///
/// All integers are big-endian. Every branch starts at `tokenIn`; each hop's input is the previous hop's
/// `currencyOut`; the last hop of every branch must output `tokenOut`. address(0) is native ETH.
library RouteCodec {
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

    /// @notice Checks the whole structure before anything moves: version, counts, kinds, exact length,
    ///         non-zero branch amounts summing to `amountIn`, V4 key bounds, and every branch ending in
    ///         `tokenOut`. Pool existence is checked hop by hop while executing.
    function validate(bytes calldata route, uint256 amountIn, address tokenOut) internal pure {
        uint256 length = route.length;
        if (length < HEADER_SIZE) revert IExecutor.MalformedRoute(length);
        uint256 head = word(route, 0);
        uint256 version = head >> 248;
        if (version != VERSION) revert IExecutor.UnsupportedRouteVersion(version);
        uint256 branchCount = (head >> 240) & 0xff;
        if (branchCount == 0 || branchCount > MAX_BRANCHES) revert IExecutor.InvalidBranchCount(branchCount);

        uint256 offset = HEADER_SIZE;
        uint256 sum;
        for (uint256 b; b < branchCount; ++b) {
            uint256 amount;
            (offset, amount) = _validateBranch(route, offset, b, tokenOut);
            sum += amount;
        }
        if (offset != length) revert IExecutor.MalformedRoute(length);
        if (sum != amountIn) revert IExecutor.BranchAmountsMismatch(sum, amountIn);
    }

    /// @dev Checks branch `b` at `offset` and returns the offset past it and its amount.
    function _validateBranch(bytes calldata route, uint256 offset, uint256 b, address tokenOut)
        private
        pure
        returns (uint256, uint256 amount)
    {
        if (offset + BRANCH_HEADER_SIZE > route.length) revert IExecutor.MalformedRoute(route.length);
        uint256 branch = word(route, offset); // amountIn:u128 hopCount:u8
        amount = branch >> 128;
        if (amount == 0) revert IExecutor.ZeroBranchAmount(b);
        uint256 hopCount = (branch >> 120) & 0xff;
        if (hopCount == 0 || hopCount > MAX_HOPS) revert IExecutor.InvalidHopCount(hopCount);
        offset += BRANCH_HEADER_SIZE;
        address last;
        for (uint256 h; h < hopCount; ++h) {
            (offset, last) = _validateHop(route, offset);
        }
        if (last != tokenOut) revert IExecutor.BranchEndsInWrongCurrency(last, tokenOut);
        return (offset, amount);
    }

    /// @dev Checks the hop at `offset` (a whole hop fits in the one word read there: kind, currencyOut and
    ///      at most six bytes of parameters) and returns the offset past it and its `currencyOut`.
    function _validateHop(bytes calldata route, uint256 offset) private pure returns (uint256 end, address out) {
        uint256 length = route.length;
        if (offset + 1 > length) revert IExecutor.MalformedRoute(length);
        uint256 hop = word(route, offset);
        uint256 kind = hop >> 248;
        end = offset + hopSize(kind);
        if (end > length) revert IExecutor.MalformedRoute(length);
        if (kind == KIND_V4) {
            // forge-lint: disable-next-line(unsafe-typecast) bytes 21..23 of the hop
            uint24 fee = uint24(hop >> 64);
            // forge-lint: disable-next-line(unsafe-typecast) bytes 24..26 of the hop, sign-extended
            int24 tickSpacing = int24(uint24(hop >> 40));
            if (fee > MAX_V4_FEE || tickSpacing < 1 || tickSpacing > MAX_V4_TICK_SPACING) {
                revert IExecutor.InvalidV4PoolKey(fee, tickSpacing);
            }
        }
        // forge-lint: disable-next-line(unsafe-typecast) bytes 1..20 of the hop
        out = address(uint160(hop >> 88));
    }

    /// @notice Size in bytes of a hop of `kind`; reverts `UnknownHopKind` for anything else.
    function hopSize(uint256 kind) internal pure returns (uint256) {
        if (kind == KIND_V2) return V2_HOP_SIZE;
        if (kind == KIND_V3) return V3_HOP_SIZE;
        if (kind == KIND_V4) return V4_HOP_SIZE;
        revert IExecutor.UnknownHopKind(kind);
    }

    // Readers. Callers validate lengths first; calldataload past the end reads zeros.

    /// @notice The 32 bytes at `offset` as one big-endian word.
    function word(bytes calldata data, uint256 offset) internal pure returns (uint256 value) {
        assembly ("memory-safe") {
            value := calldataload(add(data.offset, offset))
        }
    }

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
