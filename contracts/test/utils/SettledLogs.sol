// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

// Vm through Test.sol only: importing forge-std files by two paths makes solc-js crash on a cold build.
import {Vm} from "forge-std/Test.sol";
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

/// @notice Reads the collector's `Settled` events from recorded logs.
library SettledLogs {
    /// @notice The data of the last `Settled` event `collector` emitted in `logs`, and how many it emitted.
    function last(Vm.Log[] memory logs, address collector) internal pure returns (SettledData memory d, uint256 count) {
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != collector || logs[i].topics[0] != ISettlementCollector.Settled.selector) continue;
            ++count;
            d = abi.decode(logs[i].data, (SettledData));
        }
    }
}
