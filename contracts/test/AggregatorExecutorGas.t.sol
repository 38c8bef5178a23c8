// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../src/interfaces/IExecutor.sol";
import {StandInSwaps} from "../devnet/aggregators/StandInSwaps.sol";
import {GasFixture} from "./utils/GasFixture.sol";

/// @notice The aggregator path's own gas (docs/aggregator-execution.md, "Gas"): the same stand-in swap called
///         directly by the taker, and through `swapThroughAggregator` unattributed (no fee, no record),
///         attributed without a fee, and with the demo builder's fee; for both entries, ERC-20 to ERC-20,
///         native ETH in and native ETH out, each one V2 hop. Every call is a low-level call of calldata
///         built while metering was paused, so the figures compare like with like.
contract AggregatorExecutorGasTest is GasFixture {
    uint256 internal constant AMOUNT = 1_000e18;
    uint256 internal constant ETH_AMOUNT = 1e18;

    /// @dev The taker approves the stand-ins for direct calls; one earlier direct swap per stand-in and
    ///      output token makes their fee recipient's balances non-zero, and one earlier unattributed swap
    ///      through entry 2 has the executor's lasting approval of the allowance holder in place, as in a
    ///      steady state (the first entry-2 swap of a token pays ~20k more for it, once).
    function setUp() public override {
        super.setUp();
        address[2] memory takers = [alice, bob];
        for (uint256 i; i < takers.length; ++i) {
            vm.startPrank(takers[i]);
            tokA.approve(address(aggRouter), type(uint256).max);
            tokA.approve(address(holder), type(uint256).max);
            vm.stopPrank();
        }
        for (uint256 d; d < 3; ++d) {
            IExecutor.SwapParams memory p = _terms(d, bob);
            _call(bob, address(aggRouter), p, _routerDataFor(p, _hop(p.tokenOut, 0), bob));
            _call(bob, address(holder), p, _execDataFor(address(settler), p, _hop(p.tokenOut, 0), bob));
            IExecutor.SwapParams memory u = _unattributed(p);
            bytes memory exec = _execDataFor(address(settler), u, _hop(p.tokenOut, 0), bob);
            _call(bob, address(executor), u, abi.encodeCall(IExecutor.swapThroughAggregator, (u, ENTRY_HOLDER, exec)));
        }
    }

    /// @dev 0: A -> B, 1: ETH -> A, 2: A -> ETH, each one V2 hop, for `recipient`.
    function _terms(uint256 direction, address recipient) internal view returns (IExecutor.SwapParams memory) {
        if (direction == 0) return _params(address(tokA), address(tokB), AMOUNT, recipient);
        if (direction == 1) return _params(NATIVE, address(tokA), ETH_AMOUNT, recipient);
        return _params(address(tokA), NATIVE, AMOUNT, recipient);
    }

    function _call(address from, address to, IExecutor.SwapParams memory p, bytes memory data) internal {
        vm.prank(from);
        (bool ok,) = to.call{value: p.tokenIn == NATIVE ? p.amountIn : 0}(data);
        require(ok, "swap failed");
    }

    /// @dev 0: the stand-in directly; 1: through the executor, unattributed; 2: attributed, no fee; 3: with
    ///      the demo builder's fee.
    function _aggregatorA(uint256 direction, uint256 how) internal {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _terms(direction, alice);
        StandInSwaps.Hop[] memory hops = _hop(p.tokenOut, 0);
        if (how == 0) return _measureCall(address(aggRouter), p, _routerDataFor(p, hops, alice));
        p = _fees(p, how);
        // As the service builds it: without a builder fee the router pays the recipient directly.
        bytes memory data = how == 3 ? _routerData(p, hops) : _routerDataFor(p, hops, alice);
        _measureCall(address(executor), p, abi.encodeCall(IExecutor.swapThroughAggregator, (p, ENTRY_ROUTER, data)));
    }

    function _aggregatorB(uint256 direction, uint256 how) internal {
        vm.pauseGasMetering();
        IExecutor.SwapParams memory p = _terms(direction, alice);
        StandInSwaps.Hop[] memory hops = _hop(p.tokenOut, 0);
        if (how == 0) return _measureCall(address(holder), p, _execDataFor(address(settler), p, hops, alice));
        p = _fees(p, how);
        // As the service builds it: without a builder fee the settler pays the recipient directly.
        bytes memory data =
            how == 3 ? _execData(address(settler), p, hops) : _execDataFor(address(settler), p, hops, alice);
        _measureCall(address(executor), p, abi.encodeCall(IExecutor.swapThroughAggregator, (p, ENTRY_HOLDER, data)));
    }

    function _fees(IExecutor.SwapParams memory p, uint256 how) internal pure returns (IExecutor.SwapParams memory) {
        if (how == 1) return _unattributed(p);
        if (how == 2) return _noFees(p);
        return p;
    }

    function test_gas_aggregatorA_erc20_direct() public {
        _aggregatorA(0, 0);
    }

    function test_gas_aggregatorA_erc20_executor_unattributed() public {
        _aggregatorA(0, 1);
    }

    function test_gas_aggregatorA_erc20_executor_noFee() public {
        _aggregatorA(0, 2);
    }

    function test_gas_aggregatorA_erc20_executor_builderFee() public {
        _aggregatorA(0, 3);
    }

    function test_gas_aggregatorA_ethIn_direct() public {
        _aggregatorA(1, 0);
    }

    function test_gas_aggregatorA_ethIn_executor_unattributed() public {
        _aggregatorA(1, 1);
    }

    function test_gas_aggregatorA_ethIn_executor_builderFee() public {
        _aggregatorA(1, 3);
    }

    function test_gas_aggregatorA_ethOut_direct() public {
        _aggregatorA(2, 0);
    }

    function test_gas_aggregatorA_ethOut_executor_unattributed() public {
        _aggregatorA(2, 1);
    }

    function test_gas_aggregatorA_ethOut_executor_builderFee() public {
        _aggregatorA(2, 3);
    }

    function test_gas_aggregatorB_erc20_direct() public {
        _aggregatorB(0, 0);
    }

    function test_gas_aggregatorB_erc20_executor_unattributed() public {
        _aggregatorB(0, 1);
    }

    function test_gas_aggregatorB_erc20_executor_noFee() public {
        _aggregatorB(0, 2);
    }

    function test_gas_aggregatorB_erc20_executor_builderFee() public {
        _aggregatorB(0, 3);
    }

    function test_gas_aggregatorB_ethIn_direct() public {
        _aggregatorB(1, 0);
    }

    function test_gas_aggregatorB_ethIn_executor_unattributed() public {
        _aggregatorB(1, 1);
    }

    function test_gas_aggregatorB_ethIn_executor_builderFee() public {
        _aggregatorB(1, 3);
    }

    function test_gas_aggregatorB_ethOut_direct() public {
        _aggregatorB(2, 0);
    }

    function test_gas_aggregatorB_ethOut_executor_unattributed() public {
        _aggregatorB(2, 1);
    }

    function test_gas_aggregatorB_ethOut_executor_builderFee() public {
        _aggregatorB(2, 3);
    }
}
