// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {RouteCodecHarness} from "./utils/RouteCodecHarness.sol";
import {RouteCodecReference} from "./utils/RouteCodecReference.sol";
import {Routes} from "./utils/Routes.sol";

contract RouteCodecTest is Test {
    RouteCodecHarness internal codec = new RouteCodecHarness();
    RouteCodecReference internal previous = new RouteCodecReference();
    address internal constant OUT = address(0xB0B);

    function _isRouteError(bytes memory err) private pure returns (bool) {
        if (err.length < 4) return false;
        bytes4 selector = bytes4(err);
        return selector == IExecutor.MalformedRoute.selector || selector == IExecutor.UnsupportedRouteVersion.selector
            || selector == IExecutor.InvalidBranchCount.selector || selector == IExecutor.InvalidHopCount.selector
            || selector == IExecutor.UnknownHopKind.selector || selector == IExecutor.ZeroBranchAmount.selector
            || selector == IExecutor.BranchAmountsMismatch.selector
            || selector == IExecutor.BranchEndsInWrongCurrency.selector
            || selector == IExecutor.InvalidV4PoolKey.selector;
    }

    /// @notice Arbitrary bytes either validate or fail with one of the route errors: never a panic, never
    ///         an out-of-bounds read.
    function test_fuzz_randomBytes_onlyRouteErrors(bytes calldata route, uint256 amountIn) public view {
        try codec.validate(route, amountIn, OUT) {
            assertGe(route.length, 40);
        } catch (bytes memory err) {
            assertTrue(_isRouteError(err));
        }
    }

    /// @notice Any well-formed route of 1-3 branches of 1-3 hops validates; flipping its version, count or
    ///         length bytes is caught.
    function test_fuzz_wellFormedRoutes_validate(uint256 seed, uint8 branches) public view {
        (bytes memory route, uint256 total) = _wellFormed(seed, branches);
        codec.validate(route, total, OUT);

        bytes memory trailing = bytes.concat(route, hex"00");
        try codec.validate(trailing, total, OUT) {
            revert("trailing byte accepted");
        } catch (bytes memory err) {
            assertEq(err, abi.encodeWithSelector(IExecutor.MalformedRoute.selector, trailing.length));
        }
        try codec.validate(route, total + 1, OUT) {
            revert("wrong total accepted");
        } catch (bytes memory err) {
            assertEq(err, abi.encodeWithSelector(IExecutor.BranchAmountsMismatch.selector, total, total + 1));
        }
    }

    /// @notice The validation agrees with the one before it read each hop as one word, on well-formed routes
    ///         with one byte changed anywhere, a byte cut or added, and the amount off by one: both accept, or
    ///         both revert with the same data.
    function test_fuzz_matchesReference(uint256 seed, uint8 branches, uint256 mutation) public view {
        (bytes memory route, uint256 total) = _wellFormed(seed, branches);
        uint256 edit = mutation % 4;
        if (edit == 0) {
            // `mutation`'s second byte at a position drawn from its upper bits
            route[(mutation >> 16) % route.length] = bytes1(uint8(mutation >> 8));
        } else if (edit == 1) {
            assembly ("memory-safe") {
                mstore(route, sub(mload(route), 1))
            }
        } else if (edit == 2) {
            route = bytes.concat(route, bytes1(uint8(mutation >> 8)));
        } else {
            total += 1;
        }
        _assertSame(route, total);
    }

    /// @notice And on arbitrary bytes.
    function test_fuzz_randomBytes_matchReference(bytes calldata route, uint256 amountIn) public view {
        _assertSame(route, amountIn);
    }

    function _assertSame(bytes memory route, uint256 amountIn) private view {
        (bool ok, bytes memory result) = address(codec).staticcall(abi.encodeCall(codec.validate, (route, amountIn, OUT)));
        (bool refOk, bytes memory refResult) =
            address(previous).staticcall(abi.encodeCall(previous.validate, (route, amountIn, OUT)));
        assertEq(ok, refOk, "accepted by one only");
        assertEq(result, refResult, "different revert data");
    }

    /// @dev A well-formed route of 1-3 branches of 1-3 hops drawn from `seed`, and its total amount.
    function _wellFormed(uint256 seed, uint8 branches) private pure returns (bytes memory route, uint256 total) {
        branches = uint8(bound(branches, 1, 3));
        route = abi.encodePacked(uint8(1), branches);
        for (uint256 b; b < branches; ++b) {
            uint256 amount = bound(uint256(keccak256(abi.encode(seed, b))), 1, type(uint128).max / 3);
            total += amount;
            route = bytes.concat(route, _branch(seed, b, amount));
        }
    }

    /// @dev Branch `b` of `_wellFormed`'s route: `amount`, then 1-3 hops ending in `OUT`.
    function _branch(uint256 seed, uint256 b, uint256 amount) private pure returns (bytes memory) {
        uint256 hops = 1 + (uint256(keccak256(abi.encode(seed, b, "hops"))) % 3);
        bytes memory hopBytes;
        for (uint256 h; h < hops; ++h) {
            address out = h + 1 == hops ? OUT : address(uint160(uint256(keccak256(abi.encode(seed, b, h)))));
            uint256 kind = uint256(keccak256(abi.encode(seed, b, h, "kind"))) % 3;
            if (kind == 0) hopBytes = bytes.concat(hopBytes, Routes.v2(out));
            else if (kind == 1) hopBytes = bytes.concat(hopBytes, Routes.v3(out, 3000));
            else hopBytes = bytes.concat(hopBytes, Routes.v4(out, uint24(seed % 1_000_001), int24(int256(1 + seed % 32767))));
        }
        return abi.encodePacked(uint128(amount), uint8(hops), hopBytes);
    }

    function test_validate_smallestAndLargestRoutes() public view {
        bytes memory smallest = Routes.single(1, Routes.v2(OUT));
        assertEq(smallest.length, 40);
        codec.validate(smallest, 1, OUT);
        bytes memory hop = Routes.v4(address(1), 3000, 60);
        bytes memory last = Routes.v4(OUT, 3000, 60);
        bytes memory br = Routes.branch(1, hop, hop, last);
        bytes memory largest = Routes.route(br, br, br);
        assertEq(largest.length, 296);
        codec.validate(largest, 3, OUT);
    }
}
