// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {Routes} from "./utils/Routes.sol";
import {SwapAssertions} from "./utils/SwapAssertions.sol";

/// @notice A fee-on-transfer token (TAX, 1% burnt on every transfer) as output and as intermediate: every
///         amount is measured where it arrives, and the fees are taken from what arrived.
contract ExecutorFeeOnTransferTest is SwapAssertions {
    address internal a;
    address internal b;
    address internal c;

    function setUp() public override {
        super.setUp();
        a = address(tokA);
        b = address(tokB);
        c = address(tokC);
    }

    function test_noFee_feeOnTransferOutput_outputIsWhatArrives() public {
        uint256 amountIn = 1_000e18;
        uint256 arrives = _taxed(_quoteV2(a, address(tax), amountIn)); // the pair pays bob, taxed 1%
        IExecutor.SwapParams memory p = _noFees(_params(a, address(tax), amountIn, bob));
        bytes memory route = Routes.single(amountIn, Routes.v2(address(tax)));
        _expectRefusedAbove(p, route, arrives);
        uint256 before = tax.balanceOf(bob);
        vm.recordLogs();
        assertEq(_swapAs(alice, p, route), arrives);
        assertEq(tax.balanceOf(bob) - before, arrives);
        (ISettlementCollector.Settlement memory s, uint256 count) = _settlements(vm.getRecordedLogs());
        assertEq(count, 1);
        assertEq(s.grossAmountOut, arrives);
        assertEq(s.amountOut, arrives);
        assertEq(s.routeFee + s.builderFee, 0);
        assertEq(s.policyVersion, registry.policyVersion());
        _assertExecutorEmpty();
    }

    function test_feeOnTransferOutput_minOutOnWhatArrives_feesOnWhatArrived() public {
        uint256 amountIn = 1_000e18;
        uint256 gross = _taxed(_quoteV2(a, address(tax), amountIn)); // the pair's transfer to the executor is taxed 1%
        IExecutor.SwapParams memory p = _params(a, address(tax), amountIn, bob);
        uint256 routeFee = (gross * DEFAULT_ROUTE_FEE) / 10_000;
        uint256 builderFee = (gross * BUILDER_FEE) / 10_000;
        uint256 sent = gross - routeFee - builderFee;
        uint256 arrives = _taxed(sent);
        bytes memory route = Routes.single(amountIn, Routes.v2(address(tax)));
        _expectRefusedAbove(p, route, arrives);
        uint256 before = tax.balanceOf(bob);
        uint256 owedBefore = _owed(address(tax));
        vm.recordLogs();
        uint256 out = _swapAs(alice, p, route);
        assertEq(out, arrives);
        assertEq(tax.balanceOf(bob) - before, arrives);
        // The fees are taken from what arrived, so they are credited in full; only the recipient's share is
        // taxed again on its way out.
        (ISettlementCollector.Settlement memory s,) = _settlements(vm.getRecordedLogs());
        assertEq(s.grossAmountOut, gross);
        assertEq(s.routeFee, routeFee);
        assertEq(s.builderFee, builderFee);
        assertEq(s.amountOut, arrives);
        assertEq(_owed(address(tax)) - owedBefore, routeFee + builderFee);
        assertEq(tax.balanceOf(address(executor)), _owed(address(tax)), "the executor holds exactly its credits");
        _assertExecutorEmpty();
    }

    function test_feeOnTransferIntermediate_v2PairToPair_measured() public {
        // C -(V2)-> B -(V2)-> A -(V2)-> TAX: pair-to-pair payments, the last one taxed on its way to us.
        uint256 amountIn = 500e18;
        address[] memory path = new address[](3);
        (path[0], path[1], path[2]) = (c, b, a);
        uint256 aOut = v2Router.getAmountsOut(amountIn, path)[2];
        uint256 gross = _taxed(_quoteV2(a, address(tax), aOut));
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(b), Routes.v2(a), Routes.v2(address(tax))));
        IExecutor.SwapParams memory p = _params(c, address(tax), amountIn, alice);
        vm.recordLogs();
        _swapAs(alice, p, route);
        (ISettlementCollector.Settlement memory s,) = _settlements(vm.getRecordedLogs());
        assertEq(s.grossAmountOut, gross);
        _assertExecutorEmpty();
    }

    function test_feeOnTransferIntermediate_taxedIntoNextPair_measuredAtThePair() public {
        // A -(V2 A/TAX)-> TAX, paid pair to pair (taxed on the way) -(V2 TAX/B)-> B.
        uint256 amountIn = 800e18;
        uint256 taxIntoPair = _taxed(_quoteV2(a, address(tax), amountIn));
        uint256 gross = _quoteV2(address(tax), b, taxIntoPair);
        bytes memory route = Routes.route(Routes.branch(amountIn, Routes.v2(address(tax)), Routes.v2(b)));
        _swapAndCheck(alice, _params(a, b, amountIn, alice), route, gross, AB_ROUTE_FEE, BUILDER_FEE);
    }

    /// @dev A minimum one wei above what `arrives` is refused with InsufficientOutput(arrives, arrives + 1);
    ///      leaves `p.minOut` at `arrives`, for the swap that must succeed.
    function _expectRefusedAbove(IExecutor.SwapParams memory p, bytes memory route, uint256 arrives) private {
        p.minOut = arrives + 1;
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, arrives, arrives + 1));
        _swapAs(alice, p, route);
        p.minOut = arrives;
    }

    /// @dev What arrives of `amount` TAX: the token burns floor(amount * 1%).
    function _taxed(uint256 amount) private pure returns (uint256) {
        return amount - (amount * 100) / 10_000;
    }
}
