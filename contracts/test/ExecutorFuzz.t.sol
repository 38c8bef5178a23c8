// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {Routes} from "./utils/Routes.sol";
import {SwapAssertions} from "./utils/SwapAssertions.sol";

/// @notice Stateless fuzzing of the executor against the official pools and quoters: exact amounts, fee
///         bounds, minOut, deadline and msg.value.
contract ExecutorFuzzTest is SwapAssertions {
    address internal a;
    address internal b;
    address internal c;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        b = address(tokB);
        c = address(tokC);
    }

    function test_fuzz_v2_matchesRouter02(uint256 amountIn, bool reverse) public {
        amountIn = bound(amountIn, 1e6, 200_000e18);
        (address x, address y) = reverse ? (c, b) : (b, c);
        _swapAndCheck(alice, _params(x, y, amountIn, bob), Routes.single(amountIn, Routes.v2(y)), _quoteV2(x, y, amountIn), DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_fuzz_v3_matchesQuoterV2(uint256 amountIn, bool reverse, bool lowTier) public {
        amountIn = bound(amountIn, 1e6, 600_000e18);
        (address x, address y) = reverse ? (b, a) : (a, b);
        uint24 fee = lowTier ? 500 : 3000;
        _swapAndCheck(alice, _params(x, y, amountIn, bob), Routes.single(amountIn, Routes.v3(y, fee)), _quoteV3(x, y, fee, amountIn), AB_ROUTE_FEE, BUILDER_FEE);
    }

    function test_fuzz_v4_matchesV4Quoter(uint256 amountIn, bool reverse) public {
        amountIn = bound(amountIn, 1e6, 600_000e18);
        (address x, address y) = reverse ? (c, b) : (b, c);
        _swapAndCheck(alice, _params(x, y, amountIn, bob), Routes.single(amountIn, Routes.v4(y, 500, 10)), _quoteV4(x, y, 500, 10, amountIn), DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_fuzz_nativeInAndOut_v4(uint256 amountIn, bool ethIn) public {
        amountIn = bound(amountIn, 1e9, 100_000e18);
        (address x, address y) = ethIn ? (NATIVE, a) : (a, NATIVE);
        _swapAndCheck(alice, _params(x, y, amountIn, bob), Routes.single(amountIn, Routes.v4(y, 3000, 60)), _quoteV4(x, y, 3000, 60, amountIn), DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_fuzz_split_threeDisjointPools_sumOfQuotes(uint256 amountIn, uint256 s1, uint256 s2) public {
        // Each branch at least 1e6 wei: a V2 pair refuses a swap whose output rounds to zero.
        amountIn = bound(amountIn, 3e6, 300_000e18);
        uint256 x = bound(s1, 1e6, amountIn - 2e6);
        uint256 y = bound(s2, 1e6, amountIn - x - 1e6);
        uint256 z = amountIn - x - y;
        uint256 gross = _quoteV2(a, b, x) + _quoteV3(a, b, 3000, y) + _quoteV4(a, b, 3000, 60, z);
        bytes memory route = Routes.route(
            Routes.branch(x, Routes.v2(b)), Routes.branch(y, Routes.v3(b, 3000)), Routes.branch(z, Routes.v4(b, 3000, 60))
        );
        _swapAndCheck(alice, _params(a, b, amountIn, alice), route, gross, AB_ROUTE_FEE, BUILDER_FEE);
    }

    /// @notice Each fee is min(quoted, policy, 50) bps of gross, whatever the quote says and whatever
    ///         governance set; a suspended builder gets nothing. The quoted service fee's bit 15 (the pair has
    ///         a fee of its own: read its word first) changes no fee, right or wrong, on a pair with a fee of
    ///         its own or on the schedule's default.
    function test_fuzz_fees_neverAboveQuotedNorCap(
        uint16 quotedRoute,
        uint16 quotedBuilder,
        uint16 policyRoute,
        uint16 builderMax,
        bool suspended,
        bool pairFee
    ) public {
        policyRoute = pairFee ? uint16(bound(policyRoute, 0, 50)) : DEFAULT_ROUTE_FEE;
        builderMax = uint16(bound(builderMax, 0, 50));
        vm.startPrank(gov);
        if (pairFee) registry.setPairRouteFee(a, b, policyRoute);
        else registry.clearPairRouteFee(a, b);
        registry.setBuilderMaxFee(builderId, builderMax);
        if (suspended) registry.setBuilderEnabled(builderId, false);
        vm.stopPrank();
        uint256 amountIn = 10_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, bob);
        p.maxRouteFeeBps = quotedRoute;
        p.maxBuilderFeeBps = quotedBuilder;
        uint16 quotedCap = quotedRoute & 0x7fff;
        uint16 routeBps = quotedCap < policyRoute ? quotedCap : policyRoute;
        uint16 builderBps = suspended ? 0 : quotedBuilder < builderMax ? quotedBuilder : builderMax;
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), routeBps, builderBps);
        assertLe(routeBps, 50);
        assertLe(builderBps, 50);
    }

    function test_fuzz_minOut_enforcedOnRecipientReceipt(uint256 amountIn, uint256 minOut) public {
        amountIn = bound(amountIn, 1e6, 100_000e18);
        uint256 gross = _quoteV3(b, c, 3000, amountIn);
        uint256 net = gross - (gross * DEFAULT_ROUTE_FEE) / 10_000 - (gross * BUILDER_FEE) / 10_000;
        minOut = bound(minOut, 0, net * 2 + 1);
        IExecutor.SwapParams memory p = _params(b, c, amountIn, bob);
        p.minOut = minOut;
        bytes memory route = Routes.single(amountIn, Routes.v3(c, 3000));
        if (minOut > net) {
            vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, net, minOut));
            _swapAs(alice, p, route);
        } else {
            _swapAndCheck(alice, p, route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        }
    }

    function test_fuzz_deadline_expiredAlwaysReverts(uint256 deadline, uint256 now_) public {
        now_ = bound(now_, 1, type(uint64).max);
        deadline = bound(deadline, 0, type(uint64).max);
        vm.warp(now_);
        IExecutor.SwapParams memory p = _params(a, b, 1e18, alice);
        p.deadline = deadline;
        if (deadline < now_) vm.expectRevert(abi.encodeWithSelector(IExecutor.DeadlineExpired.selector, deadline, now_));
        _swapAs(alice, p, Routes.single(1e18, Routes.v2(b)));
        _assertExecutorEmpty();
    }

    function test_fuzz_msgValue_mustMatchNativeInputExactly(uint256 amountIn, uint256 value, bool nativeIn) public {
        amountIn = bound(amountIn, 1e9, 1_000e18);
        value = bound(value, 0, 2_000e18);
        address tokenIn = nativeIn ? NATIVE : a;
        address tokenOut = nativeIn ? a : NATIVE;
        IExecutor.SwapParams memory p = _params(tokenIn, tokenOut, amountIn, alice);
        uint256 expected = nativeIn ? amountIn : 0;
        if (value != expected) vm.expectRevert(abi.encodeWithSelector(IExecutor.InvalidNativeValue.selector, expected, value));
        vm.prank(alice);
        executor.swap{value: value}(p, Routes.single(amountIn, Routes.v4(tokenOut, 3000, 60)));
        _assertExecutorEmpty();
    }
}
