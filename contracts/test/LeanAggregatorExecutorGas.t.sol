// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {GasFixture} from "./utils/GasFixture.sol";
import {LeanRouter} from "./utils/LeanRouter.sol";

/// @notice Entry 1's ERC-20 overhead against a router that writes nothing from zero (`LeanRouter`), beside
///         the devnet stand-in's (`AggregatorExecutorGasTest`): with the stand-in, its own writes from zero fill
///         the refund cap, so the executor's exact approval, written from zero and cleared, is refunded little
///         and every gas the executor adds counts four fifths; here the refunds count in full. The same
///         executor code; 1,000 A to B on the V2 pair, the payer approving the router (direct) or the executor.
contract LeanAggregatorExecutorGasTest is GasFixture {
    uint256 internal constant AMOUNT = 1_000e18;
    LeanRouter internal lean;

    function _beforeJunction() internal override {
        super._beforeJunction();
        lean = new LeanRouter();
        aggregatorTargets.router = address(lean);
    }

    function setUp() public override {
        super.setUp();
        vm.prank(alice);
        tokA.approve(address(lean), type(uint256).max);
    }

    function _data(IExecutor.SwapParams memory p) internal view returns (bytes memory) {
        address pair = _v2Pair(p.tokenIn, p.tokenOut);
        return abi.encodeCall(LeanRouter.swap, (p.tokenIn, p.amountIn, pair, p.tokenIn < p.tokenOut, p.recipient, 1));
    }

    function test_gas_leanRouter_erc20_direct() public {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _params(address(tokA), address(tokB), AMOUNT, alice);
        _measureCall(address(lean), p, _data(p));
    }

    function test_gas_leanRouter_erc20_executor_unattributed() public {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _unattributed(_params(address(tokA), address(tokB), AMOUNT, alice));
        _measureCall(address(executor), p, abi.encodeCall(IExecutor.swapThroughAggregator, (p, ENTRY_ROUTER, _data(p))));
    }

    function test_gas_leanRouter_erc20_executor_noFee() public {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _noFees(_params(address(tokA), address(tokB), AMOUNT, alice));
        _measureCall(address(executor), p, abi.encodeCall(IExecutor.swapThroughAggregator, (p, ENTRY_ROUTER, _data(p))));
    }
}
