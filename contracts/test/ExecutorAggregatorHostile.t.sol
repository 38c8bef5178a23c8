// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../src/interfaces/ISettlementCollector.sol";
import {HostileAggregator} from "./hostile/HostileAggregator.sol";
import {StickyAllowanceToken} from "./hostile/StickyAllowanceToken.sol";
import {AggregatorFixture} from "./utils/AggregatorFixture.sol";

/// @notice An executor whose deployment named a hostile router (entry 1): it tries to pull more than the
///         input or from the payer, re-enters, short-changes, leaves input unspent, pays elsewhere, refunds
///         ETH. Each attempt fails or ends the swap with a closed error; funds only ever come from the payer,
///         and nothing is left in the executor.
contract ExecutorAggregatorHostileTest is AggregatorFixture {
    HostileAggregator internal hostile;
    address internal a;
    address internal b;
    address internal thief = makeAddr("thief");
    uint256 internal constant IN = 1_000e18;
    uint256 internal constant OUT = 990e18;

    function _beforeJunction() internal override {
        super._beforeJunction();
        hostile = new HostileAggregator();
        aggregatorTargets.router = address(hostile);
    }

    function setUp() public override {
        super.setUp();
        (a, b) = (address(tokA), address(tokB));
        tokB.transfer(address(hostile), 1e24);
        vm.deal(address(hostile), 1e24);
    }

    function _arm(HostileAggregator.Mode mode) internal {
        hostile.configure(mode, executor, alice, thief);
    }

    function _data(IExecutor.SwapParams memory p, uint256 out) internal pure returns (bytes memory) {
        return abi.encodeCall(HostileAggregator.swap, (p.tokenIn, p.amountIn, p.tokenOut, out));
    }

    function test_honest_baseline() public {
        _arm(HostileAggregator.Mode.Honest);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _data(p, OUT), OUT);
    }

    function test_pullMoreThanAmountIn_fails() public {
        _arm(HostileAggregator.Mode.PullMore);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        uint256 before = tokA.balanceOf(alice);
        vm.expectRevert(IExecutor.AggregatorCallFailed.selector);
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
        assertEq(tokA.balanceOf(alice), before, "the payer kept everything");
    }

    /// @notice The payer approved the executor, not the router: the router cannot reach the payer's funds.
    function test_pullFromPayer_fails_payerChargedOnlyAmountIn() public {
        _arm(HostileAggregator.Mode.PullFromPayer);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _data(p, OUT), OUT);
        assertEq(hostile.attacks(), 1, "attempted");
        assertEq(hostile.successes(), 0, "pulled from the payer");
    }

    function test_reentry_callbacks_andClaim_allFail() public {
        _arm(HostileAggregator.Mode.Reenter);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _data(p, OUT), OUT);
        assertEq(hostile.attacks(), 5, "attempted");
        assertEq(hostile.successes(), 0, "an attack from inside the call succeeded");
        assertEq(hostile.errors(0), IExecutor.Reentrancy.selector, "swapThroughAggregator re-entered");
        assertEq(hostile.errors(1), IExecutor.Reentrancy.selector, "swap re-entered");
        assertEq(hostile.errors(2), IExecutor.UnauthorizedCallback.selector, "V3 callback");
        assertEq(hostile.errors(3), IExecutor.UnauthorizedCallback.selector, "V4 callback");
        assertEq(hostile.errors(4), IExecutor.Reentrancy.selector, "claim mid-swap");
    }

    function test_reentry_withNativeInput_fails() public {
        _arm(HostileAggregator.Mode.Reenter);
        IExecutor.SwapParams memory p = _params(NATIVE, b, 5e18, bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _data(p, 4e18), 4e18);
        assertEq(hostile.successes(), 0, "an attack from inside the call succeeded");
    }

    function test_shortChange_belowMinOut_reverts() public {
        _arm(HostileAggregator.Mode.ShortChange);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        uint256 promised = OUT - (OUT * BUILDER_FEE) / 10_000;
        uint256 delivered = OUT / 2 - (OUT / 2 * BUILDER_FEE) / 10_000;
        p.minOut = promised;
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, delivered, promised));
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
    }

    function test_leavesInputUnspent_reverts() public {
        _arm(HostileAggregator.Mode.LeaveInput);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorLeftInput.selector, IN - IN / 2));
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
    }

    /// @notice ETH sent back to the executor is refused outside a native-output call; forced past
    ///         `receive` (self-destruct), it is unspent input all the same.
    function test_refundsNativeInput_reverts() public {
        _arm(HostileAggregator.Mode.RefundEth);
        IExecutor.SwapParams memory p = _params(NATIVE, b, 4e18, bob);
        vm.expectRevert(IExecutor.AggregatorCallFailed.selector);
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
        _arm(HostileAggregator.Mode.ForceRefundEth);
        vm.expectRevert(abi.encodeWithSelector(IExecutor.AggregatorLeftInput.selector, 2e18));
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
    }

    function test_paysElsewhere_noOutput_reverts() public {
        _arm(HostileAggregator.Mode.PayElsewhere);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        p.minOut = 1;
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, 0, 1));
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
        p.tokenOut = NATIVE;
        vm.expectRevert(abi.encodeWithSelector(IExecutor.InsufficientOutput.selector, 0, 1));
        _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
    }

    /// @notice A token whose `transferFrom` leaves the allowance in place: the executor resets it.
    function test_stickyAllowance_isReset() public {
        StickyAllowanceToken sticky = new StickyAllowanceToken(alice, 1e24);
        vm.prank(alice);
        sticky.approve(address(executor), type(uint256).max);
        _arm(HostileAggregator.Mode.Honest);
        IExecutor.SwapParams memory p = _params(address(sticky), b, IN, bob);
        uint256 out = _aggSwapAs(alice, p, ENTRY_ROUTER, _data(p, OUT));
        assertEq(out, OUT - (OUT * BUILDER_FEE) / 10_000, "amountOut");
        assertEq(sticky.balanceOf(address(hostile)), IN, "the router got exactly the input");
        assertEq(sticky.allowance(address(executor), address(hostile)), 0, "allowance left to the router");
        assertEq(sticky.balanceOf(address(executor)), 0, "executor holds input");
        _assertExecutorEmpty();
    }

    /// @notice Funds only come from the payer: a donation parked in the executor is not the router's to
    ///         take, and the payer's other tokens are untouched.
    function test_fundsOnlyFromThePayer() public {
        _arm(HostileAggregator.Mode.Honest);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        uint256 otherTokens = tokC.balanceOf(alice) + IERC20(address(weth)).balanceOf(alice);
        uint256 bobsA = tokA.balanceOf(bob);
        _aggSwapAndCheck(alice, p, ENTRY_ROUTER, _data(p, OUT), OUT);
        assertEq(tokC.balanceOf(alice) + IERC20(address(weth)).balanceOf(alice), otherTokens, "other tokens moved");
        assertEq(tokA.balanceOf(bob), bobsA, "the recipient's input-token balance moved");
        assertEq(tokA.balanceOf(address(hostile)), IN, "the router got exactly the input");
    }
}
