// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {Routes} from "./utils/Routes.sol";
import {SwapAssertions} from "./utils/SwapAssertions.sol";

/// @notice Every route shape through the official pools, with amounts checked wei for wei against the
///         official Router02 / QuoterV2 / V4Quoter at the same state.
contract ExecutorTest is SwapAssertions {
    address internal a;
    address internal b;
    address internal c;
    address internal w;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        b = address(tokB);
        c = address(tokC);
        w = address(weth);
    }

    function test_v2_singleHop_matchesRouter02() public {
        uint256 amountIn = 1_000e18;
        uint256 gross = _quoteV2(a, b, amountIn);
        _swapAndCheck(alice, _params(a, b, amountIn, bob), Routes.single(amountIn, Routes.v2(b)), gross, AB_ROUTE_FEE, BUILDER_FEE);
    }

    function test_v2_chainedPairs_payPairToPair() public {
        uint256 amountIn = 2_500e18;
        address[] memory path = new address[](3);
        (path[0], path[1], path[2]) = (a, b, c);
        uint256 gross = v2Router.getAmountsOut(amountIn, path)[2];
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v2(c)));
        _swapAndCheck(alice, _params(a, c, amountIn, alice), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_v3_singleHop_matchesQuoterV2_acrossTicks() public {
        // 400k crosses the narrow band's edge (about 300k of each token) into the full-range liquidity.
        uint256 amountIn = 400_000e18;
        uint256 gross = _quoteV3(b, a, 500, amountIn);
        _swapAndCheck(alice, _params(b, a, amountIn, alice), Routes.single(amountIn, Routes.v3(a, 500)), gross, AB_ROUTE_FEE, BUILDER_FEE);
    }

    function test_v4_singleHop_matchesV4Quoter() public {
        uint256 amountIn = 12_345e18;
        uint256 gross = _quoteV4(b, c, 500, 10, amountIn);
        _swapAndCheck(alice, _params(b, c, amountIn, alice), Routes.single(amountIn, Routes.v4(c, 500, 10)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_v4_twoHopRun_settlesOnce() public {
        uint256 amountIn = 5_000e18;
        uint256 mid = _quoteV4(a, b, 3000, 60, amountIn);
        uint256 gross = _quoteV4(b, c, 500, 10, mid);
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v4(b, 3000, 60), Routes.v4(c, 500, 10)));
        _swapAndCheck(alice, _params(a, c, amountIn, alice), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_mixed_threeHops_v2_v3_v4_toNativeEth() public {
        uint256 amountIn = 3_000e18;
        uint256 q1 = _quoteV2(a, b, amountIn);
        uint256 q2 = _quoteV3(b, c, 3000, q1);
        uint256 gross = _quoteV4(c, NATIVE, 500, 10, q2);
        bytes memory route =
            Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v3(c, 3000), Routes.v4(NATIVE, 500, 10)));
        _swapAndCheck(alice, _params(a, NATIVE, amountIn, bob), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_split_threeBranches_v2_v3_v4() public {
        (uint256 amountIn, bytes memory route, uint256 gross) = _threeBranchSplit();
        _swapAndCheck(alice, _params(a, b, amountIn, alice), route, gross, AB_ROUTE_FEE, BUILDER_FEE);
    }

    /// @dev 90,000 A to B over the V2 pair, the 0.3% V3 pool and the 0.3% V4 pool, and its exact gross.
    function _threeBranchSplit() private returns (uint256 amountIn, bytes memory route, uint256 gross) {
        amountIn = 90_000e18;
        (uint256 x, uint256 y) = (40_000e18, 35_000e18);
        uint256 z = amountIn - x - y;
        gross = _quoteV2(a, b, x) + _quoteV3(a, b, 3000, y) + _quoteV4(a, b, 3000, 60, z);
        route = Routes.route(
            Routes.branch(x, Routes.v2(b)), Routes.branch(y, Routes.v3(b, 3000)), Routes.branch(z, Routes.v4(b, 3000, 60))
        );
    }

    function test_nativeIn_v4_nativePool() public {
        uint256 amountIn = 7e18;
        uint256 gross = _quoteV4(NATIVE, a, 3000, 60, amountIn);
        _swapAndCheck(alice, _params(NATIVE, a, amountIn, alice), Routes.single(amountIn, Routes.v4(a, 3000, 60)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_nativeIn_v2_wrapsIntoWethPair() public {
        uint256 amountIn = 11e18;
        uint256 gross = _quoteV2(NATIVE, a, amountIn);
        _swapAndCheck(alice, _params(NATIVE, a, amountIn, alice), Routes.single(amountIn, Routes.v2(a)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_nativeOut_v3_unwrapsWeth() public {
        uint256 amountIn = 9_000e18;
        uint256 gross = _quoteV3(a, NATIVE, 3000, amountIn);
        _swapAndCheck(alice, _params(a, NATIVE, amountIn, bob), Routes.single(amountIn, Routes.v3(NATIVE, 3000)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_nativeIn_v3WethThenV4NativePool_convertsBetweenHops() public {
        // Branch 1: ETH -(V3 WETH/A, wraps)-> A -(V4 A/B)-> B. Branch 2: ETH -(V4 ETH/A)-> A -(V2)-> B.
        uint256 amountIn = 20e18;
        uint256 half = amountIn / 2;
        uint256 gross1 = _quoteV4(a, b, 3000, 60, _quoteV3(NATIVE, a, 3000, half));
        uint256 gross2 = _quoteV2(a, b, _quoteV4(NATIVE, a, 3000, 60, amountIn - half));
        bytes memory route = Routes.route(
            Routes.branch(half, Routes.v3(a, 3000), Routes.v4(b, 3000, 60)),
            Routes.branch(amountIn - half, Routes.v4(a, 3000, 60), Routes.v2(b))
        );
        _swapAndCheck(alice, _params(NATIVE, b, amountIn, alice), route, gross1 + gross2, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_wethNamedAsNative_v2ThenV4NativePool_unwrapsInBetween() public {
        // A -(V2 A/WETH, named as ETH)-> ETH -(V4 ETH/C)-> C: the WETH is unwrapped for the native V4 pool.
        uint256 amountIn = 4_000e18;
        uint256 gross = _quoteV4(NATIVE, c, 500, 10, _quoteV2(a, NATIVE, amountIn));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(NATIVE), Routes.v4(c, 500, 10)));
        _swapAndCheck(alice, _params(a, c, amountIn, alice), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_wethIsAnErc20_v4WethPool() public {
        uint256 amountIn = 3e18;
        uint256 gross = _quoteV4(w, b, 3000, 60, amountIn);
        _swapAndCheck(alice, _params(w, b, amountIn, alice), Routes.single(amountIn, Routes.v4(b, 3000, 60)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    function test_nativeOut_v2ThenV3_wethStaysWrappedBetweenPoolHops() public {
        // B -(V2 B/A)-> A -(V3 WETH/A, out as ETH)-> ETH
        uint256 amountIn = 1_500e18;
        uint256 gross = _quoteV3(a, NATIVE, 3000, _quoteV2(b, a, amountIn));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(a), Routes.v3(NATIVE, 3000)));
        _swapAndCheck(alice, _params(b, NATIVE, amountIn, alice), route, gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
    }

    // ------------------------------------------------------------------ fees

    function test_fees_quotedBelowPolicy_chargesQuoted() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, c, amountIn, alice);
        p.maxRouteFeeBps = 7; // policy for A/C is 25
        p.maxBuilderFeeBps = 3; // builder cap is 50
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v2(c)));
        address[] memory path = new address[](3);
        (path[0], path[1], path[2]) = (a, b, c);
        _swapAndCheck(alice, p, route, v2Router.getAmountsOut(amountIn, path)[2], 7, 3);
    }

    function test_fees_quotedAbovePolicy_chargesPolicy() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        p.maxRouteFeeBps = 40; // A/B policy is 5
        p.maxBuilderFeeBps = 50;
        vm.prank(gov);
        registry.setBuilderMaxFee(builderId, 20);
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), AB_ROUTE_FEE, 20);
    }

    function test_fees_quotedAboveFiftyBps_neverAboveFifty() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, c, amountIn, alice);
        p.maxRouteFeeBps = type(uint16).max;
        p.maxBuilderFeeBps = type(uint16).max;
        vm.prank(gov);
        registry.setDefaultRouteFee(50);
        uint256 gross = _quoteV3(b, c, 3000, _quoteV2(a, b, amountIn));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v3(c, 3000)));
        _swapAndCheck(alice, p, route, gross, 50, 50);
    }

    function test_fees_builderRouteFeeOverride_appliesWhileEnabled() public {
        uint256 amountIn = 1_000e18;
        vm.prank(gov);
        registry.setBuilderRouteFee(builderId, 2);
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), 2, BUILDER_FEE);
    }

    function test_fees_suspendedBuilder_neverPaid_standardScheduleApplies() public {
        uint256 amountIn = 1_000e18;
        vm.startPrank(gov);
        registry.setBuilderRouteFee(builderId, 1);
        registry.setBuilderEnabled(builderId, false);
        vm.stopPrank();
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        p.maxBuilderFeeBps = 50;
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), AB_ROUTE_FEE, 0);
    }

    function test_fees_unknownBuilder_neverPaid() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        p.builderId = keccak256("nobody");
        p.maxBuilderFeeBps = 50;
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), AB_ROUTE_FEE, 0);
    }

    function test_fees_noBuilder_onlyServiceFee() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        p.builderId = bytes32(0);
        p.maxBuilderFeeBps = 50;
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), AB_ROUTE_FEE, 0);
    }

    function test_fees_uncommissionedRegistry_chargesNothing() public {
        uint256 amountIn = 1_000e18;
        vm.prank(gov);
        registry.setCommissioned(false);
        _swapAndCheck(alice, _params(a, b, amountIn, alice), Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), 0, 0);
    }

    function test_fees_nativeOutput_creditedInEth() public {
        uint256 amountIn = 2_000e18;
        uint256 gross = _quoteV4(a, NATIVE, 3000, 60, amountIn);
        _swapAndCheck(alice, _params(a, NATIVE, amountIn, alice), Routes.single(amountIn, Routes.v4(NATIVE, 3000, 60)), gross, DEFAULT_ROUTE_FEE, BUILDER_FEE);
        uint256 owed = collector.claimable(builderWallet, NATIVE);
        vm.prank(builderWallet);
        collector.claim(NATIVE, builderWallet);
        assertEq(builderWallet.balance, owed);
    }

    // ------------------------------------------------------------------ no fee: the last pools pay the recipient

    function test_noFee_split_lastPoolOfEachBranchPaysRecipient() public {
        (uint256 amountIn, bytes memory route, uint256 gross) = _threeBranchSplit();
        _swapAndCheck(alice, _noFees(_params(a, b, amountIn, bob)), route, gross, 0, 0);
    }

    function test_noFee_chainedPairs_lastPairPaysRecipient() public {
        uint256 amountIn = 2_500e18;
        address[] memory path = new address[](3);
        (path[0], path[1], path[2]) = (a, b, c);
        uint256 gross = v2Router.getAmountsOut(amountIn, path)[2];
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v2(c)));
        _swapAndCheck(alice, _noFees(_params(a, c, amountIn, bob)), route, gross, 0, 0);
    }

    function test_noFee_v4Run_takenByRecipient() public {
        uint256 amountIn = 5_000e18;
        uint256 gross = _quoteV4(b, c, 500, 10, _quoteV4(a, b, 3000, 60, amountIn));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v4(b, 3000, 60), Routes.v4(c, 500, 10)));
        _swapAndCheck(alice, _noFees(_params(a, c, amountIn, bob)), route, gross, 0, 0);
    }

    function test_noFee_v4ThenV3_onlyTheLastPoolPaysRecipient() public {
        uint256 amountIn = 3_000e18;
        uint256 gross = _quoteV3(b, c, 3000, _quoteV4(a, b, 3000, 60, amountIn));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v4(b, 3000, 60), Routes.v3(c, 3000)));
        _swapAndCheck(alice, _noFees(_params(a, c, amountIn, bob)), route, gross, 0, 0);
    }

    /// @dev Attributed and charging nothing: nothing is owed, so the executor's own `Attributed` event is the
    ///      whole record: no registry read, no call but the pool's, no storage written by the executor.
    function test_noFee_attributed_emitsAttributed_readsAndStoresNothing() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        uint256 gross = _quoteV3(a, b, 3000, amountIn);
        vm.expectCall(address(registry), "", 0);
        vm.expectEmit(address(executor));
        emit IExecutor.Attributed(p.builderId, p.quoteId, alice, p.keyIdHash, bob, a, amountIn, b, gross);
        vm.record();
        _swapAs(alice, p, Routes.single(amountIn, Routes.v3(b, 3000)));
        (, bytes32[] memory executorWrites) = vm.accesses(address(executor));
        assertEq(executorWrites.length, 0, "storage written");
    }

    /// @dev Unattributed and charging nothing: no registry read, no storage written, no event.
    function test_noFee_unattributed_notRecorded() public {
        uint256 amountIn = 1_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, b, amountIn, bob));
        p.builderId = bytes32(0);
        _expectUnrecorded(p, Routes.single(amountIn, Routes.v3(b, 3000)), _quoteV3(a, b, 3000, amountIn));
    }

    /// @dev Native output takes the settling path (unwrap, then pay): unattributed and uncharged, it is not
    ///      recorded either.
    function test_noFee_unattributed_nativeOutput_notRecorded() public {
        uint256 amountIn = 2_000e18;
        IExecutor.SwapParams memory p = _noFees(_params(a, NATIVE, amountIn, bob));
        p.builderId = bytes32(0);
        _expectUnrecorded(p, Routes.single(amountIn, Routes.v4(NATIVE, 3000, 60)), _quoteV4(a, NATIVE, 3000, 60, amountIn));
    }

    /// @dev The recipient gets the whole output; the registry is not called and no credit is written.
    function _expectUnrecorded(IExecutor.SwapParams memory p, bytes memory route, uint256 gross) private {
        uint256 before = _balance(p.tokenOut, p.recipient);
        vm.expectCall(address(registry), "", 0);
        vm.record();
        vm.recordLogs();
        assertEq(_swapAs(alice, p, route), gross);
        assertEq(_balance(p.tokenOut, p.recipient) - before, gross);
        (, uint256 count) = _settlements(vm.getRecordedLogs());
        assertEq(count, 0);
        (, bytes32[] memory writes) = vm.accesses(address(executor));
        assertEq(writes.length, 0, "storage written");
        _assertExecutorEmpty();
    }

    /// @dev Quoted caps non-zero but nothing charged (uncommissioned registry): unattributed, so not recorded;
    ///      attributed, recorded with both fees 0.
    function test_uncommissioned_recordedOnlyWhenAttributed() public {
        uint256 amountIn = 1_000e18;
        vm.prank(gov);
        registry.setCommissioned(false);
        IExecutor.SwapParams memory p = _params(a, b, amountIn, alice);
        p.builderId = bytes32(0);
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), 0, 0);
        p.builderId = builderId;
        _swapAndCheck(alice, p, Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), 0, 0);
    }

    // ------------------------------------------------------------------ misc

    function test_twoSwapsInOneTransaction_lockIsReleased() public {
        uint256 amountIn = 100e18;
        vm.startPrank(alice);
        executor.swap(_params(a, b, amountIn, alice), Routes.single(amountIn, Routes.v2(b)));
        executor.swap(_params(b, a, amountIn, alice), Routes.single(amountIn, Routes.v3(a, 500)));
        vm.stopPrank();
        _assertExecutorEmpty();
    }

    function test_pullsOnlyFromSender_notFromApprovedVictim() public {
        // alice has approved the executor; bob has no A at all and names alice nowhere: he can only spend his own.
        address mallory = makeAddr("mallory");
        uint256 aliceBefore = tokA.balanceOf(alice);
        vm.prank(mallory);
        vm.expectRevert();
        executor.swap(_params(a, b, 1e18, mallory), Routes.single(1e18, Routes.v2(b)));
        assertEq(tokA.balanceOf(alice), aliceBefore);
    }
}
