// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {DevnetToken} from "../devnet/DevnetToken.sol";
import {FeeOnTransferToken} from "../devnet/FeeOnTransferToken.sol";
import {SettlementCollector} from "../src/SettlementCollector.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {ReentrantToken} from "./hostile/ReentrantToken.sol";
import {EthRejecter} from "./hostile/CallbackSpoofer.sol";

contract SettlementCollectorTest is Test {
    SettlementCollector internal collector;
    DevnetToken internal token;
    address internal gov = makeAddr("governance");
    address internal executor = makeAddr("executor");
    address internal treasury = makeAddr("treasury");
    address internal builder = makeAddr("builder");
    address internal stranger = makeAddr("stranger");

    function setUp() public {
        collector = new SettlementCollector(gov);
        vm.prank(gov);
        collector.setExecutor(executor, true);
        address[] memory holders = new address[](1);
        holders[0] = executor;
        token = new DevnetToken("T", "T", 18, holders, 1e30);
        vm.deal(executor, 1e24);
    }

    function _settlement(address tokenOut, uint256 routeFee, uint256 builderFee)
        internal
        view
        returns (ISettlementCollector.Settlement memory s)
    {
        s.builderId = keccak256("junction-demo");
        s.quoteId = keccak256("q");
        s.payer = stranger;
        s.keyIdHash = keccak256("k");
        s.recipient = stranger;
        s.tokenIn = address(0xbeef);
        s.amountIn = 1e18;
        s.tokenOut = tokenOut;
        s.grossAmountOut = 1_000e18;
        s.routeFee = routeFee;
        s.builderFee = builderFee;
        s.amountOut = s.grossAmountOut > routeFee + builderFee ? s.grossAmountOut - routeFee - builderFee : 0;
        s.builderRecipient = builder;
        s.policyVersion = 7;
    }

    function _settleErc20(uint256 routeFee, uint256 builderFee) internal {
        vm.startPrank(executor);
        token.transfer(address(collector), routeFee + builderFee);
        collector.settle(_settlement(address(token), routeFee, builderFee), treasury);
        vm.stopPrank();
    }

    function test_settle_creditsAndEmitsEveryField() public {
        ISettlementCollector.Settlement memory s = _settlement(address(token), 25e17, 1e18);
        vm.prank(executor);
        token.transfer(address(collector), 35e17);
        vm.expectEmit(address(collector));
        emit ISettlementCollector.Settled(
            s.builderId,
            s.quoteId,
            s.payer,
            s.keyIdHash,
            s.recipient,
            s.tokenIn,
            s.amountIn,
            s.tokenOut,
            s.grossAmountOut,
            s.routeFee,
            s.builderFee,
            s.amountOut,
            s.builderRecipient,
            s.policyVersion
        );
        vm.prank(executor);
        collector.settle(s, treasury);
        assertEq(collector.claimable(treasury, address(token)), 25e17);
        assertEq(collector.claimable(builder, address(token)), 1e18);
        assertEq(collector.totalClaimable(address(token)), 35e17);
    }

    function test_settle_native() public {
        ISettlementCollector.Settlement memory s = _settlement(address(0), 3e15, 1e15);
        vm.prank(executor);
        collector.settle{value: 4e15}(s, treasury);
        assertEq(collector.claimable(treasury, address(0)), 3e15);
        assertEq(collector.claimable(builder, address(0)), 1e15);
        vm.prank(treasury);
        assertEq(collector.claim(address(0), treasury), 3e15);
        assertEq(treasury.balance, 3e15);
    }

    function test_settle_zeroFees_stillOneEvent() public {
        ISettlementCollector.Settlement memory s = _settlement(address(token), 0, 0);
        s.builderRecipient = address(0);
        vm.recordLogs();
        vm.prank(executor);
        collector.settle(s, treasury);
        assertEq(vm.getRecordedLogs().length, 1);
    }

    function test_settle_feeTokensMissing_creditsNothing() public {
        // An executor that records without paying gets nothing credited: credits are measured.
        vm.prank(executor);
        collector.settle(_settlement(address(token), 1e18, 1e18), treasury);
        assertEq(collector.claimable(treasury, address(token)), 0);
        assertEq(collector.totalClaimable(address(token)), 0);
    }

    function test_settle_surplusIsNotCredited() public {
        vm.prank(executor);
        token.transfer(address(collector), 10e18); // a donation
        _settleErc20(1e18, 1e18);
        assertEq(collector.claimable(treasury, address(token)), 1e18 + 0);
        assertEq(collector.totalClaimable(address(token)), 2e18);
    }

    function test_settle_feeOnTransferShortfall_splitProRata() public {
        address[] memory holders = new address[](1);
        holders[0] = executor;
        FeeOnTransferToken fot = new FeeOnTransferToken("F", "F", 18, holders, 1e24, 100);
        vm.startPrank(executor);
        fot.transfer(address(collector), 4e18); // 3.96e18 arrives
        vm.expectEmit(address(collector));
        emit ISettlementCollector.FeeShortfall(address(fot), 4e18, 396e16);
        collector.settle(_settlement(address(fot), 3e18, 1e18), treasury);
        vm.stopPrank();
        assertEq(collector.claimable(builder, address(fot)), 99e16);
        assertEq(collector.claimable(treasury, address(fot)), 297e16);
        assertEq(collector.totalClaimable(address(fot)), fot.balanceOf(address(collector)));
    }

    function test_claim_sendsAndZeroes() public {
        _settleErc20(2e18, 1e18);
        vm.expectEmit(address(collector));
        emit ISettlementCollector.Claimed(builder, address(token), stranger, 1e18);
        vm.prank(builder);
        assertEq(collector.claim(address(token), stranger), 1e18);
        assertEq(token.balanceOf(stranger), 1e18);
        assertEq(collector.claimable(builder, address(token)), 0);
        assertEq(collector.totalClaimable(address(token)), 2e18);
    }

    function test_claim_reentrantToken_cannotDoubleClaim() public {
        ReentrantToken evil = new ReentrantToken(executor, 1e24);
        vm.startPrank(executor);
        evil.transfer(address(collector), 2e18);
        ISettlementCollector.Settlement memory s = _settlement(address(evil), 1e18, 1e18);
        s.builderRecipient = address(evil);
        collector.settle(s, treasury);
        vm.stopPrank();
        evil.arm(address(collector), abi.encodeCall(collector.claim, (address(evil), address(evil))), address(0));
        vm.prank(address(evil));
        collector.claim(address(evil), address(evil));
        assertEq(evil.successes(), 0);
        assertEq(evil.lastError(), abi.encodeWithSelector(ISettlementCollector.NothingToClaim.selector, address(evil), address(evil)));
        assertEq(evil.balanceOf(address(collector)), 1e18);
        assertEq(collector.totalClaimable(address(evil)), 1e18);
    }

    function test_revert_settle_notExecutor() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotExecutor.selector, stranger));
        vm.prank(stranger);
        collector.settle(_settlement(address(token), 0, 0), treasury);
    }

    function test_revert_settle_revokedExecutor() public {
        vm.prank(gov);
        collector.setExecutor(executor, false);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotExecutor.selector, executor));
        vm.prank(executor);
        collector.settle(_settlement(address(token), 0, 0), treasury);
    }

    function test_revert_settle_nativeValueMismatch() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidNativeValue.selector, 4e15, 4e15 - 1));
        vm.prank(executor);
        collector.settle{value: 4e15 - 1}(_settlement(address(0), 3e15, 1e15), treasury);
    }

    function test_revert_settle_valueWithErc20() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidNativeValue.selector, 0, 1));
        vm.prank(executor);
        collector.settle{value: 1}(_settlement(address(token), 1, 1), treasury);
    }

    function test_revert_settle_valueWithZeroFees() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidNativeValue.selector, 0, 1));
        vm.prank(executor);
        collector.settle{value: 1}(_settlement(address(0), 0, 0), treasury);
    }

    function test_revert_settle_builderFeeWithoutRecipient() public {
        ISettlementCollector.Settlement memory s = _settlement(address(token), 1, 1);
        s.builderRecipient = address(0);
        vm.expectRevert(ISettlementCollector.MissingFeeRecipient.selector);
        vm.prank(executor);
        collector.settle(s, treasury);
    }

    function test_revert_settle_zeroTreasury() public {
        vm.expectRevert(ISettlementCollector.MissingFeeRecipient.selector);
        vm.prank(executor);
        collector.settle(_settlement(address(token), 1, 0), address(0));
    }

    function test_revert_claim_nothing() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NothingToClaim.selector, stranger, address(token)));
        vm.prank(stranger);
        collector.claim(address(token), stranger);
    }

    function test_revert_claim_toZero() public {
        vm.expectRevert(ISettlementCollector.ZeroAddress.selector);
        vm.prank(treasury);
        collector.claim(address(token), address(0));
    }

    function test_revert_claim_nativeRejected() public {
        vm.prank(executor);
        collector.settle{value: 2}(_settlement(address(0), 1, 1), treasury);
        address rejecter = address(new EthRejecter());
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NativeTransferFailed.selector, rejecter, 1));
        vm.prank(treasury);
        collector.claim(address(0), rejecter);
    }

    function test_revert_constructor_zeroOwner() public {
        vm.expectRevert(ISettlementCollector.ZeroAddress.selector);
        new SettlementCollector(address(0));
    }

    function test_revert_setExecutor_notOwner() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotOwner.selector, stranger));
        vm.prank(stranger);
        collector.setExecutor(stranger, true);
    }

    function test_ownership_twoStep() public {
        vm.prank(gov);
        collector.transferOwnership(stranger);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotOwner.selector, stranger));
        vm.prank(stranger);
        collector.setExecutor(stranger, true);
        vm.prank(stranger);
        collector.acceptOwnership();
        assertEq(collector.owner(), stranger);
        assertEq(collector.pendingOwner(), address(0));
    }

    function test_revert_transferOwnership_notOwner() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotOwner.selector, stranger));
        vm.prank(stranger);
        collector.transferOwnership(stranger);
    }

    function test_revert_acceptOwnership_notPending() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotPendingOwner.selector, stranger));
        vm.prank(stranger);
        collector.acceptOwnership();
    }

    function test_fuzz_settle_alwaysSolvent_creditsNeverExceedArrivals(
        uint96 routeFee,
        uint96 builderFee,
        uint96 paid,
        uint16 taxBps
    ) public {
        taxBps = uint16(bound(taxBps, 0, 1000));
        address[] memory holders = new address[](1);
        holders[0] = executor;
        FeeOnTransferToken fot = new FeeOnTransferToken("F", "F", 18, holders, 1e30, taxBps);
        vm.startPrank(executor);
        if (paid > 0) fot.transfer(address(collector), paid);
        collector.settle(_settlement(address(fot), routeFee, builderFee), treasury);
        vm.stopPrank();
        uint256 credited = collector.claimable(treasury, address(fot)) + collector.claimable(builder, address(fot));
        assertEq(credited, collector.totalClaimable(address(fot)));
        assertLe(credited, fot.balanceOf(address(collector)));
        assertLe(credited, uint256(routeFee) + builderFee);
        assertLe(collector.claimable(builder, address(fot)), builderFee);
        assertLe(collector.claimable(treasury, address(fot)), routeFee);
    }
}
