// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// Vm through Test.sol only: importing forge-std files by two paths makes solc-js crash on a cold build.
import {Vm} from "forge-std/Test.sol";
import {IBuilderRegistry} from "../../src/interfaces/IBuilderRegistry.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";

/// @dev The `Settled` event's non-indexed data, decoded in one piece (14 arguments are too many for the
///      legacy code generator's stack).
struct SettledData {
    bytes32 keyIdHash;
    address recipient;
    address tokenIn;
    uint256 amountIn;
    address tokenOut;
    uint256 grossAmountOut;
    uint256 routeFee;
    uint256 builderFee;
    uint256 amountOut;
    address builderRecipient;
    uint64 policyVersion;
}

/// @dev The `Attributed` event's non-indexed data.
struct AttributedData {
    bytes32 keyIdHash;
    address recipient;
    address tokenIn;
    uint256 amountIn;
    address tokenOut;
    uint256 amountOut;
}

/// @notice Reads settlement records from recorded logs the way the service's history does: the collector's
///         `Settled` events and the executor's `Attributed` events (no fee: gross = amountOut, both fees zero,
///         builder recipient and policy version from the registry now, i.e. at the event's block).
library SettledLogs {
    /// @notice The last settlement record in `logs`, and how many there were.
    function last(Vm.Log[] memory logs, address collector, address executor, IBuilderRegistry registry)
        internal
        view
        returns (SettledData memory d, uint256 count)
    {
        for (uint256 i; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter == collector && log.topics[0] == ISettlementCollector.Settled.selector) {
                ++count;
                d = abi.decode(log.data, (SettledData));
            } else if (log.emitter == executor && log.topics[0] == IExecutor.Attributed.selector) {
                ++count;
                d = fromAttributed(log, registry);
            }
        }
    }

    /// @notice An `Attributed` event as the settlement record the service's history shows for it.
    function fromAttributed(Vm.Log memory log, IBuilderRegistry registry) internal view returns (SettledData memory d) {
        AttributedData memory a = abi.decode(log.data, (AttributedData));
        (d.keyIdHash, d.recipient, d.tokenIn, d.amountIn, d.tokenOut) = (a.keyIdHash, a.recipient, a.tokenIn, a.amountIn, a.tokenOut);
        (d.grossAmountOut, d.amountOut) = (a.amountOut, a.amountOut);
        (d.builderRecipient, d.policyVersion) = registry.recordPolicy(log.topics[1]);
    }
}
