// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {RouteCodecHarness} from "./utils/RouteCodecHarness.sol";
import {Routes} from "./utils/Routes.sol";

contract RouteCodecTest is Test {
    RouteCodecHarness internal codec = new RouteCodecHarness();
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
        branches = uint8(bound(branches, 1, 3));
        bytes memory body;
        uint256 total;
        for (uint256 b; b < branches; ++b) {
            uint256 amount = bound(uint256(keccak256(abi.encode(seed, b))), 1, type(uint128).max / 3);
            total += amount;
            uint256 hops = 1 + (uint256(keccak256(abi.encode(seed, b, "hops"))) % 3);
            bytes memory hopBytes;
            for (uint256 h; h < hops; ++h) {
                address out = h + 1 == hops ? OUT : address(uint160(uint256(keccak256(abi.encode(seed, b, h)))));
                uint256 kind = uint256(keccak256(abi.encode(seed, b, h, "kind"))) % 3;
                if (kind == 0) hopBytes = bytes.concat(hopBytes, Routes.v2(out));
                else if (kind == 1) hopBytes = bytes.concat(hopBytes, Routes.v3(out, 3000));
                else hopBytes = bytes.concat(hopBytes, Routes.v4(out, uint24(seed % 1_000_001), int24(int256(1 + seed % 32767))));
            }
            body = bytes.concat(body, abi.encodePacked(uint128(amount), uint8(hops), hopBytes));
        }
        bytes memory route = bytes.concat(abi.encodePacked(uint8(1), branches), body);
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
