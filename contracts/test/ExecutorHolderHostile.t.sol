// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {StandInAllowanceHolder} from "../devnet/aggregators/StandInAllowanceHolder.sol";
import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {HostileSettler} from "./hostile/HostileSettler.sol";
import {ZeroFirstApproveToken} from "./hostile/ZeroFirstApproveToken.sol";
import {AggregatorFixture} from "./utils/AggregatorFixture.sol";

/// @notice Entry 2's lasting allowance to the allowance holder, against a hostile settler the registry
///         names active: the holder lets it take exactly the input the executor's own `exec` names, once,
///         and nothing else of the executor's (its fee credits in the input token or any other), neither
///         inside that `exec` nor in anyone else's. The executor approves the holder once per token; a token
///         that refuses to change a non-zero allowance is reset first.
contract ExecutorHolderHostileTest is AggregatorFixture {
    HostileSettler internal hostile;
    address internal a;
    address internal b;
    address internal thief = makeAddr("thief");
    uint256 internal constant IN = 1_000e18;
    uint256 internal constant OUT = 990e18;

    function setUp() public override {
        super.setUp();
        (a, b) = (address(tokA), address(tokB));
        hostile = new HostileSettler(holder);
        tokA.transfer(address(hostile), 1e24);
        tokB.transfer(address(hostile), 1e24);
        settlerRegistry.setActive(uint128(SETTLER_FEATURE), address(hostile));
        // Honest swaps both ways with the builder fee: the executor then holds fee credits in A and B, and
        // has approved the holder for A and B.
        _honest(_params(a, b, IN, bob));
        _honest(_params(b, a, IN, bob));
        assertGt(tokA.balanceOf(address(executor)), 0, "credits in A");
        assertGt(tokB.balanceOf(address(executor)), 0, "credits in B");
    }

    function _data(IExecutor.SwapParams memory p, uint256 out) internal view returns (bytes memory) {
        bytes memory settle = abi.encodeCall(HostileSettler.settle, (p.tokenIn, p.amountIn, p.tokenOut, out));
        return abi.encodeCall(
            StandInAllowanceHolder.exec, (address(hostile), p.tokenIn, p.amountIn, payable(address(hostile)), settle)
        );
    }

    function _honest(IExecutor.SwapParams memory p) internal {
        hostile.configure(HostileSettler.Mode.Honest, address(0));
        _aggSwapAndCheck(alice, p, ENTRY_HOLDER, _data(p, OUT), OUT);
    }

    /// @dev The swap reverts as the settler's call failing, and neither the payer nor the executor lost anything.
    function _expectRefused(HostileSettler.Mode mode, address target) internal {
        hostile.configure(mode, target);
        IExecutor.SwapParams memory p = _params(a, b, IN, bob);
        uint256 paid = tokA.balanceOf(alice);
        vm.expectRevert(IExecutor.AggregatorCallFailed.selector);
        _aggSwapAs(alice, p, ENTRY_HOLDER, _data(p, OUT));
        assertEq(tokA.balanceOf(alice), paid, "the payer kept everything");
        _assertExecutorEmpty();
        _assertAllowsNothing(a);
    }

    function test_honest_allowanceLastsAndStaysClosed() public {
        assertEq(tokA.allowance(address(executor), address(holder)), type(uint256).max, "one lasting approval");
        _honest(_params(a, b, IN, bob));
        _assertExecutorEmpty();
    }

    function test_pullMoreThanTheExecOpened_refused() public {
        _expectRefused(HostileSettler.Mode.PullMore, address(0));
    }

    function test_pullTwice_refused() public {
        _expectRefused(HostileSettler.Mode.PullTwice, address(0));
    }

    /// @notice The `exec` opens the input token only: the executor's credits in B stay out of reach.
    function test_pullAnotherTokenOfTheExecutor_refused() public {
        _expectRefused(HostileSettler.Mode.PullOtherToken, b);
    }

    /// @notice Inside someone else's `exec` the executor's allowance is closed: the holder keys what it
    ///         opens by the account that called `exec`.
    function test_pullFromTheExecutorInAnotherTakersExec_refused() public {
        hostile.configure(HostileSettler.Mode.PullFromVictim, address(executor));
        uint256 held = tokA.balanceOf(address(executor));
        bytes memory settle = abi.encodeCall(HostileSettler.settle, (a, 1e18, b, 0));
        vm.prank(thief);
        vm.expectRevert(StandInAllowanceHolder.ConfusedDeputy.selector);
        holder.exec(address(hostile), a, 1e18, payable(address(hostile)), settle);
        assertEq(tokA.balanceOf(address(executor)), held, "the executor's balance moved");
    }

    /// @notice A USDT-style token: an allowance below the input is reset to zero before the new approval.
    function test_zeroFirstToken_resetThenApproved() public {
        ZeroFirstApproveToken zf = new ZeroFirstApproveToken(alice, 1e24);
        vm.prank(alice);
        zf.approve(address(executor), type(uint256).max);
        vm.prank(address(executor));
        zf.approve(address(holder), 5);
        hostile.configure(HostileSettler.Mode.Honest, address(0));
        IExecutor.SwapParams memory p = _params(address(zf), b, IN, bob);
        uint256 out = _aggSwapAs(alice, p, ENTRY_HOLDER, _data(p, OUT));
        assertEq(out, OUT - (OUT * BUILDER_FEE) / 10_000, "amountOut");
        assertEq(zf.balanceOf(address(hostile)), IN, "the settler got exactly the input");
        assertEq(zf.balanceOf(address(executor)), 0, "executor holds input");
        assertEq(zf.allowance(address(executor), address(holder)), type(uint256).max - IN, "approved once, spent");
        _assertAllowsNothing(address(zf));
    }
}
