// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {DevnetToken} from "../devnet/DevnetToken.sol";
import {FeeOnTransferToken} from "../devnet/FeeOnTransferToken.sol";
import {BuilderRegistry} from "../src/BuilderRegistry.sol";
import {SettlementCollector} from "../src/SettlementCollector.sol";
import {IBuilderRegistry} from "../src/interfaces/IBuilderRegistry.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {ReentrantToken} from "./hostile/ReentrantToken.sol";
import {EthRejecter} from "./hostile/CallbackSpoofer.sol";

contract SettlementCollectorTest is Test {
    SettlementCollector internal collector;
    BuilderRegistry internal registry;
    DevnetToken internal token;
    address internal gov = makeAddr("governance");
    address internal executor = makeAddr("executor");
    address internal treasury = makeAddr("treasury");
    address internal builder = makeAddr("builder");
    address internal stranger = makeAddr("stranger");
    address internal recipient = makeAddr("recipient");

    function setUp() public {
        registry = new BuilderRegistry(gov, treasury, 5, 50);
        collector = new SettlementCollector(gov, registry);
        vm.prank(gov);
        collector.setExecutor(executor, true);
        address[] memory holders = new address[](1);
        holders[0] = executor;
        token = new DevnetToken("T", "T", 18, holders, 1e30);
        vm.deal(executor, 1e24);
    }

    function _order(address tokenOut, uint16 routeBps, uint16 builderBps)
        internal
        view
        returns (ISettlementCollector.Order memory o)
    {
        o.builderId = keccak256("junction-demo");
        o.quoteId = keccak256("q");
        o.payer = stranger;
        o.keyIdHash = keccak256("k");
        o.recipient = recipient;
        o.tokenIn = address(0xbeef);
        o.amountIn = 1e18;
        o.tokenOut = tokenOut;
        o.builderRecipient = builder;
        o.policyVersion = 7;
        o.routeFeeBps = routeBps;
        o.builderFeeBps = builderBps;
    }

    /// @dev As the executor: `gross` of `token` arrives (the route's last pools pay it), then `settle`.
    function _settleErc20(uint256 gross, uint16 routeBps, uint16 builderBps) internal returns (uint256 amountOut) {
        vm.startPrank(executor);
        token.transfer(address(collector), gross);
        amountOut = collector.settle(_order(address(token), routeBps, builderBps));
        vm.stopPrank();
    }

    function test_settle_splitsWhatArrived_creditsPaysAndEmitsEveryField() public {
        ISettlementCollector.Order memory o = _order(address(token), 25, 10);
        vm.prank(executor);
        token.transfer(address(collector), 1_000e18);
        vm.expectEmit(address(collector));
        emit ISettlementCollector.Settled(
            o.builderId,
            o.quoteId,
            o.payer,
            o.keyIdHash,
            o.recipient,
            o.tokenIn,
            o.amountIn,
            o.tokenOut,
            1_000e18,
            25e17,
            1e18,
            9965e17,
            o.builderRecipient,
            o.policyVersion
        );
        vm.prank(executor);
        assertEq(collector.settle(o), 9965e17);
        assertEq(token.balanceOf(recipient), 9965e17);
        assertEq(collector.claimable(treasury, address(token)), 25e17);
        assertEq(collector.serviceClaimable(address(token)), 25e17);
        assertEq(collector.claimable(builder, address(token)), 1e18);
        assertEq(collector.totalClaimable(address(token)), 35e17);
        assertEq(token.balanceOf(address(collector)), 35e17);
    }

    function test_settle_native_grossIsTheValue() public {
        vm.prank(executor);
        assertEq(collector.settle{value: 1e18}(_order(address(0), 30, 10)), 996e15);
        assertEq(recipient.balance, 996e15);
        assertEq(collector.claimable(treasury, address(0)), 3e15);
        assertEq(collector.claimable(builder, address(0)), 1e15);
        vm.prank(treasury);
        assertEq(collector.claim(address(0), treasury), 3e15);
        assertEq(treasury.balance, 3e15);
        assertEq(address(collector).balance, 1e15);
    }

    function test_settle_neverSpendsWhatIsOwed() public {
        _settleErc20(1_000e18, 50, 50);
        uint256 owed = collector.totalClaimable(address(token));
        // An executor that settles without paying anything in gets nothing, and owes nobody anything.
        vm.prank(executor);
        assertEq(collector.settle(_order(address(token), 50, 50)), 0);
        assertEq(collector.totalClaimable(address(token)), owed);
        assertEq(token.balanceOf(address(collector)), owed);
        assertEq(token.balanceOf(recipient), 990e18);
    }

    function test_settle_onlyRouteFee_writesNoBuilderCredit() public {
        ISettlementCollector.Order memory o = _order(address(token), 50, 0);
        o.builderRecipient = address(0);
        vm.startPrank(executor);
        token.transfer(address(collector), 1_000e18);
        collector.settle(o);
        vm.stopPrank();
        assertEq(collector.claimable(treasury, address(token)), 5e18);
        assertEq(collector.totalClaimable(address(token)), 5e18);
    }

    function test_settle_feeOnTransfer_feesOnWhatArrived_recipientTaxedAgain() public {
        address[] memory holders = new address[](1);
        holders[0] = executor;
        FeeOnTransferToken fot = new FeeOnTransferToken("F", "F", 18, holders, 1e24, 100);
        vm.startPrank(executor);
        fot.transfer(address(collector), 1_000e18); // 990e18 arrives
        uint256 out = collector.settle(_order(address(fot), 50, 50));
        vm.stopPrank();
        assertEq(collector.claimable(treasury, address(fot)), 495e16);
        assertEq(collector.claimable(builder, address(fot)), 495e16);
        assertEq(out, (980.1e18 * 99) / 100);
        assertEq(fot.balanceOf(recipient), out);
        assertEq(collector.totalClaimable(address(fot)), fot.balanceOf(address(collector)));
    }

    function test_claim_sendsAndZeroes() public {
        _settleErc20(1_000e18, 20, 10);
        vm.expectEmit(address(collector));
        emit ISettlementCollector.Claimed(builder, address(token), stranger, 1e18);
        vm.prank(builder);
        assertEq(collector.claim(address(token), stranger), 1e18);
        assertEq(token.balanceOf(stranger), 1e18);
        assertEq(collector.claimable(builder, address(token)), 0);
        assertEq(collector.totalClaimable(address(token)), 2e18);
    }

    function test_claim_serviceFeesGoToTheCurrentTreasury() public {
        _settleErc20(1_000e18, 20, 10);
        address next = makeAddr("next treasury");
        vm.prank(gov);
        registry.setTreasury(next);
        assertEq(collector.claimable(treasury, address(token)), 0);
        assertEq(collector.claimable(next, address(token)), 2e18);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NothingToClaim.selector, treasury, address(token)));
        vm.prank(treasury);
        collector.claim(address(token), treasury);
        vm.prank(next);
        assertEq(collector.claim(address(token), next), 2e18);
        assertEq(collector.serviceClaimable(address(token)), 0);
        assertEq(collector.totalClaimable(address(token)), 1e18);
    }

    function test_claim_treasuryThatIsAlsoTheBuilder_claimsBoth() public {
        ISettlementCollector.Order memory o = _order(address(token), 20, 10);
        o.builderRecipient = treasury;
        vm.startPrank(executor);
        token.transfer(address(collector), 1_000e18);
        collector.settle(o);
        vm.stopPrank();
        assertEq(collector.claimable(treasury, address(token)), 3e18);
        vm.prank(treasury);
        assertEq(collector.claim(address(token), treasury), 3e18);
        assertEq(collector.totalClaimable(address(token)), 0);
    }

    function test_claim_reentrantToken_cannotDoubleClaim() public {
        ReentrantToken evil = new ReentrantToken(executor, 1e24);
        ISettlementCollector.Order memory o = _order(address(evil), 10, 10);
        o.builderRecipient = address(evil);
        vm.startPrank(executor);
        evil.transfer(address(collector), 1_000e18);
        collector.settle(o);
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
        collector.settle(_order(address(token), 0, 0));
    }

    function test_revert_settle_revokedExecutor() public {
        vm.prank(gov);
        collector.setExecutor(executor, false);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NotExecutor.selector, executor));
        vm.prank(executor);
        collector.settle(_order(address(token), 0, 0));
    }

    function test_revert_settle_valueWithErc20() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidNativeValue.selector, 0, 1));
        vm.prank(executor);
        collector.settle{value: 1}(_order(address(token), 1, 1));
    }

    function test_revert_settle_builderFeeWithoutRecipient() public {
        ISettlementCollector.Order memory o = _order(address(token), 1, 1);
        o.builderRecipient = address(0);
        vm.prank(executor);
        token.transfer(address(collector), 1e18);
        vm.expectRevert(ISettlementCollector.MissingFeeRecipient.selector);
        vm.prank(executor);
        collector.settle(o);
    }

    function test_revert_settle_feeAbove50Bps() public {
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.FeeTooHigh.selector, 51));
        vm.prank(executor);
        collector.settle(_order(address(token), 51, 0));
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.FeeTooHigh.selector, 51));
        vm.prank(executor);
        collector.settle(_order(address(token), 0, 51));
    }

    function test_revert_settle_recipientIsTheCollectorOrZero() public {
        ISettlementCollector.Order memory o = _order(address(token), 1, 1);
        o.recipient = address(collector);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidRecipient.selector, address(collector)));
        vm.prank(executor);
        collector.settle(o);
        o.recipient = address(0);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.InvalidRecipient.selector, address(0)));
        vm.prank(executor);
        collector.settle(o);
    }

    function test_revert_settle_creditBeyond128Bits() public {
        address[] memory holders = new address[](1);
        holders[0] = executor;
        DevnetToken huge = new DevnetToken("H", "H", 18, holders, type(uint256).max / 2);
        vm.prank(executor);
        huge.transfer(address(collector), uint256(type(uint128).max) * 201);
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.CreditOverflow.selector, address(huge)));
        vm.prank(executor);
        collector.settle(_order(address(huge), 50, 0));
    }

    function test_revert_settle_nativeRecipientRejects() public {
        ISettlementCollector.Order memory o = _order(address(0), 10, 0);
        o.recipient = address(new EthRejecter());
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NativeTransferFailed.selector, o.recipient, 999e15));
        vm.prank(executor);
        collector.settle{value: 1e18}(o);
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
        collector.settle{value: 1e18}(_order(address(0), 50, 50));
        address rejecter = address(new EthRejecter());
        vm.expectRevert(abi.encodeWithSelector(ISettlementCollector.NativeTransferFailed.selector, rejecter, 5e15));
        vm.prank(treasury);
        collector.claim(address(0), rejecter);
    }

    function test_revert_constructor_zeroOwnerOrRegistry() public {
        vm.expectRevert(ISettlementCollector.ZeroAddress.selector);
        new SettlementCollector(address(0), registry);
        vm.expectRevert(ISettlementCollector.ZeroAddress.selector);
        new SettlementCollector(gov, IBuilderRegistry(address(0)));
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

    function test_fuzz_settle_alwaysSolvent_splitsExactlyWhatArrived(
        uint96 owedBefore,
        uint96 sent,
        uint16 routeBps,
        uint16 builderBps,
        uint16 taxBps
    ) public {
        routeBps = uint16(bound(routeBps, 0, 50));
        builderBps = uint16(bound(builderBps, 0, 50));
        taxBps = uint16(bound(taxBps, 0, 1000));
        address[] memory holders = new address[](1);
        holders[0] = executor;
        FeeOnTransferToken fot = new FeeOnTransferToken("F", "F", 18, holders, 1e30, taxBps);
        vm.startPrank(executor);
        if (owedBefore > 0) {
            fot.transfer(address(collector), owedBefore);
            collector.settle(_order(address(fot), 50, 50));
        }
        uint256 owed = collector.totalClaimable(address(fot));
        uint256 held = fot.balanceOf(address(collector));
        uint256 recipientBefore = fot.balanceOf(recipient);
        if (sent > 0) fot.transfer(address(collector), sent);
        uint256 arrived = fot.balanceOf(address(collector)) - held;
        uint256 out = collector.settle(_order(address(fot), routeBps, builderBps));
        vm.stopPrank();
        uint256 routeFee = (arrived * routeBps) / 10_000;
        uint256 builderFee = (arrived * builderBps) / 10_000;
        assertEq(collector.totalClaimable(address(fot)), owed + routeFee + builderFee);
        assertGe(fot.balanceOf(address(collector)), collector.totalClaimable(address(fot)));
        assertEq(out, fot.balanceOf(recipient) - recipientBefore);
        assertLe(out, arrived - routeFee - builderFee);
        uint256 credited = collector.claimable(treasury, address(fot)) + collector.claimable(builder, address(fot));
        assertEq(credited, collector.totalClaimable(address(fot)));
    }
}
