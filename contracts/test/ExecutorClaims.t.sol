// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {Routes} from "./utils/Routes.sol";
import {SwapAssertions} from "./utils/SwapAssertions.sol";

/// @notice The fees the executor accrues as the reviewed collector: who can move them (the builder's wallet
///         its builder fees, the registry's current treasury the service's, nobody else, never during a swap),
///         that a claim pays exactly what was credited, and that credits never mix with a payer's funds.
contract ExecutorClaimsTest is SwapAssertions {
    address internal a;
    address internal b;
    address internal stranger = makeAddr("stranger");

    function setUp() public override {
        super.setUp();
        (a, b) = (address(tokA), address(tokB));
    }

    /// @dev Two fee-charging swaps into B (demo builder): the credits are the sum of what their events say.
    function _accrue() internal returns (uint256 builderFees, uint256 serviceFees) {
        for (uint256 i; i < 2; ++i) {
            uint256 amountIn = (i + 1) * 500e18;
            vm.recordLogs();
            _swapAs(alice, _params(a, b, amountIn, bob), Routes.single(amountIn, Routes.v2(b)));
            (ISettlementCollector.Settlement memory s,) = _settlements(vm.getRecordedLogs());
            builderFees += s.builderFee;
            serviceFees += s.routeFee;
            assertEq(s.builderRecipient, builderWallet);
        }
    }

    function test_claim_paysExactlyWhatWasCredited_thenNothing() public {
        (uint256 builderFees,) = _accrue();
        assertEq(collector.claimable(builderWallet, b), builderFees);
        vm.expectEmit(address(executor));
        emit ISettlementCollector.Claimed(builderWallet, b, stranger, builderFees);
        vm.prank(builderWallet);
        assertEq(collector.claim(b, stranger), builderFees);
        assertEq(tokB.balanceOf(stranger), builderFees);
        assertEq(collector.claimable(builderWallet, b), 0);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NothingToClaim.selector, builderWallet, b));
        vm.prank(builderWallet);
        collector.claim(b, builderWallet);
        _assertExecutorEmpty();
    }

    function test_claimService_onlyTheCurrentTreasury_exactlyWhatWasCredited() public {
        (, uint256 serviceFees) = _accrue();
        address[] memory accounts = _feeAccounts();
        address[3] memory others = [builderWallet, stranger, gov];
        for (uint256 i; i < others.length; ++i) {
            vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotTreasury.selector, others[i]));
            vm.prank(others[i]);
            collector.claimService(b, accounts, others[i]);
        }
        address next = makeAddr("next treasury");
        vm.prank(gov);
        registry.setTreasury(next);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotTreasury.selector, treasury));
        vm.prank(treasury);
        collector.claimService(b, accounts, treasury);
        vm.expectEmit(address(executor));
        emit ISettlementCollector.ServiceClaimed(next, b, next, serviceFees);
        vm.prank(next);
        assertEq(collector.claimService(b, accounts, next), serviceFees);
        assertEq(tokB.balanceOf(next), serviceFees);
        assertEq(_serviceOwed(b), 0);
        // The builder's credit is untouched by the service's claim.
        assertGt(collector.claimable(builderWallet, b), 0);
        _assertExecutorEmpty();
    }

    function test_claimService_namingAnAccountTwice_paysItOnce() public {
        (, uint256 serviceFees) = _accrue();
        address[] memory accounts = new address[](3);
        (accounts[0], accounts[1], accounts[2]) = (builderWallet, builderWallet, address(0));
        vm.prank(treasury);
        assertEq(collector.claimService(b, accounts, treasury), serviceFees);
        _assertExecutorEmpty();
    }

    /// @dev A builder's wallet claims only its builder fees, never the service's credited under it.
    function test_claim_builderCannotTakeTheServiceFees() public {
        (uint256 builderFees, uint256 serviceFees) = _accrue();
        vm.prank(builderWallet);
        assertEq(collector.claim(b, builderWallet), builderFees);
        assertEq(collector.serviceClaimable(builderWallet, b), serviceFees);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NothingToClaim.selector, stranger, b));
        vm.prank(stranger);
        collector.claim(b, stranger);
    }

    function test_claim_toZero_reverts() public {
        _accrue();
        vm.expectRevert(ISettlementCollector.ZeroAddress.selector);
        vm.prank(builderWallet);
        collector.claim(b, address(0));
    }

    /// @dev Emptied slots stay marked: the next swap credits exactly its fees again, and the executor still
    ///      holds exactly what it owes; a payer's funds never pay a claim.
    function test_afterClaims_nextSwapCreditsExactly_paysFromItsOwnOutput() public {
        _accrue();
        vm.prank(builderWallet);
        collector.claim(b, builderWallet);
        vm.prank(treasury);
        collector.claimService(b, _feeAccounts(), treasury);
        assertEq(tokB.balanceOf(address(executor)), 0);
        uint256 amountIn = 700e18;
        _swapAndCheck(
            alice, _params(a, b, amountIn, bob), Routes.single(amountIn, Routes.v2(b)), _quoteV2(a, b, amountIn), AB_ROUTE_FEE, BUILDER_FEE
        );
    }

    /// @dev Credits in the output token are never spent by a later swap, whichever token it uses: a swap out
    ///      of B (the accrued token) into A pulls its B from the payer, and one through B pays out only what
    ///      arrived.
    function test_credits_neverSpentBySwapsThroughTheirToken() public {
        (uint256 builderFees, uint256 serviceFees) = _accrue();
        uint256 heldB = tokB.balanceOf(address(executor));
        assertEq(heldB, builderFees + serviceFees);
        uint256 amountIn = 300e18;
        _swapAs(alice, _params(b, a, amountIn, bob), Routes.single(amountIn, Routes.v3(a, 3000)));
        _swapAs(
            alice,
            _params(a, address(tokC), amountIn, bob),
            Routes.route(Routes.branch(amountIn, Routes.v3(b, 3000), Routes.v4(address(tokC), 500, 10)))
        );
        assertEq(tokB.balanceOf(address(executor)), heldB, "B credits intact");
        _assertExecutorEmpty();
    }
}
