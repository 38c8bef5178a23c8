// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// Vm through Test.sol only: importing forge-std files by two paths makes solc-js crash on a cold build.
import {Vm} from "forge-std/Test.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {JunctionFixture} from "./JunctionFixture.sol";
import {SettledData, SettledLogs} from "./SettledLogs.sol";

/// @notice Runs a swap and checks every amount exactly: gross output as the official oracle said, each fee
///         as `floor(gross * bps / 10000)`, recipient + fees == gross, the collector's credits, the one
///         settlement record (the collector's `Settled`, or the executor's `Attributed` when no fee was
///         charged), and an empty executor afterwards.
abstract contract SwapAssertions is JunctionFixture {
    struct Balances {
        uint256 recipient;
        uint256 treasury;
        uint256 builder;
        uint256 collector;
    }

    function _snapshot(IExecutor.SwapParams memory p) internal view returns (Balances memory b) {
        b.recipient = _balance(p.tokenOut, p.recipient);
        b.treasury = _serviceOwed(p.tokenOut);
        b.builder = collector.claimable(builderWallet, p.tokenOut);
        b.collector = _balance(p.tokenOut, address(executor));
    }

    /// @notice Swaps as `payer` and checks the outcome against `expectedGross` and the bps charged.
    function _swapAndCheck(
        address payer,
        IExecutor.SwapParams memory p,
        bytes memory route,
        uint256 expectedGross,
        uint16 routeBps,
        uint16 builderBps
    ) internal returns (uint256 amountOut) {
        Balances memory before = _snapshot(p);
        vm.recordLogs();
        amountOut = _swapAs(payer, p, route);
        _checkOutcome(payer, p, before, amountOut, Expected(expectedGross, routeBps, builderBps));
    }

    /// @dev What a swap should have produced: its gross output and the bps charged on it.
    struct Expected {
        uint256 gross;
        uint16 routeBps;
        uint16 builderBps;
    }

    /// @notice Checks a swap that just ran (logs recorded since `before` was taken): the amounts, the
    ///         collector's credits, the one `Settled` event and an empty executor.
    function _checkOutcome(
        address payer,
        IExecutor.SwapParams memory p,
        Balances memory before,
        uint256 amountOut,
        Expected memory e
    ) internal {
        uint256 routeFee = (e.gross * e.routeBps) / 10_000;
        uint256 builderFee = (e.gross * e.builderBps) / 10_000;
        uint256 net = e.gross - routeFee - builderFee;

        assertEq(amountOut, net, "amountOut");
        assertGe(amountOut, p.minOut, "minOut");
        Balances memory afterwards = _snapshot(p);
        assertEq(afterwards.recipient - before.recipient, net, "recipient received");
        assertEq(afterwards.treasury - before.treasury, routeFee, "service credit");
        assertEq(afterwards.builder - before.builder, builderFee, "builder credit");
        assertEq(afterwards.collector - before.collector, routeFee + builderFee, "the executor holds the fees");
        _assertExecutorEmpty();

        (ISettlementCollector.Settlement memory s, uint256 count) = _settlements(vm.getRecordedLogs());
        if (p.builderId == bytes32(0) && e.routeBps == 0 && e.builderBps == 0) {
            assertEq(count, 0, "an unattributed swap that charges nothing is not recorded");
            return;
        }
        assertEq(count, 1, "one settlement record");
        assertEq(s.builderId, p.builderId, "event builderId");
        assertEq(s.quoteId, p.quoteId, "event quoteId");
        assertEq(s.payer, payer, "event payer");
        assertEq(s.keyIdHash, p.keyIdHash, "event keyIdHash");
        assertEq(s.recipient, p.recipient, "event recipient");
        assertEq(s.tokenIn, p.tokenIn, "event tokenIn");
        assertEq(s.amountIn, p.amountIn, "event amountIn");
        assertEq(s.tokenOut, p.tokenOut, "event tokenOut");
        assertEq(s.grossAmountOut, e.gross, "event gross");
        assertEq(s.routeFee, routeFee, "event routeFee");
        assertEq(s.builderFee, builderFee, "event builderFee");
        assertEq(s.amountOut, net, "event amountOut");
        assertEq(s.policyVersion, registry.policyVersion(), "event policyVersion");
        _assertBuilderRecipient(p, s.builderRecipient);
    }

    /// @dev The event names whom the registry's policy would pay, whichever policy read the executor made.
    function _assertBuilderRecipient(IExecutor.SwapParams memory p, address recorded) internal view {
        assertEq(recorded, registry.feePolicy(p.tokenIn, p.tokenOut, p.builderId).builderRecipient, "event builderRecipient");
    }

    /// @notice The last `Settled` event in `logs`, and how many there were.
    function _settlements(Vm.Log[] memory logs)
        internal
        view
        returns (ISettlementCollector.Settlement memory s, uint256 count)
    {
        SettledData memory d;
        (d, count) = SettledLogs.last(logs, address(collector), address(executor), registry);
        if (count == 0) return (s, 0);
        Vm.Log memory log = _lastRecord(logs);
        s.builderId = log.topics[1];
        s.quoteId = log.topics[2];
        s.payer = address(uint160(uint256(log.topics[3])));
        s.keyIdHash = d.keyIdHash;
        s.recipient = d.recipient;
        s.tokenIn = d.tokenIn;
        s.amountIn = d.amountIn;
        s.tokenOut = d.tokenOut;
        s.grossAmountOut = d.grossAmountOut;
        s.routeFee = d.routeFee;
        s.builderFee = d.builderFee;
        s.amountOut = d.amountOut;
        s.builderRecipient = d.builderRecipient;
        s.policyVersion = d.policyVersion;
    }

    /// @dev The last `Settled` (collector) or `Attributed` (executor) log in `logs`; there is one.
    function _lastRecord(Vm.Log[] memory logs) private view returns (Vm.Log memory log) {
        for (uint256 i; i < logs.length; ++i) {
            bool settled = logs[i].emitter == address(collector) && logs[i].topics[0] == ISettlementCollector.Settled.selector;
            bool attributed = logs[i].emitter == address(executor) && logs[i].topics[0] == IExecutor.Attributed.selector;
            if (settled || attributed) log = logs[i];
        }
    }
}
