// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {ISettlementCollector} from "../interfaces/ISettlementCollector.sol";
import {FeeMath} from "../libraries/FeeMath.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title FeeSettlement
/// @notice Splits the gross output: the service fee and the builder fee, each `min(quoted bps, registry
///         policy, 50)` of the gross, go to the SettlementCollector; the rest goes to the recipient, whose
///         receipt is measured and checked against `minOut`.
abstract contract FeeSettlement is ExecutorBase {
    /// @return amountOut What the recipient received.
    function _settle(SwapParams calldata p, uint256 gross) internal returns (uint256 amountOut) {
        IBuilderRegistry.FeePolicy memory policy = registry.feePolicy(p.tokenIn, p.tokenOut, p.builderId);
        uint256 routeFee = FeeMath.fee(gross, FeeMath.chargedBps(p.maxRouteFeeBps, policy.routeFeeBps));
        uint256 builderFee = FeeMath.fee(gross, FeeMath.chargedBps(p.maxBuilderFeeBps, policy.builderFeeCapBps));
        amountOut = _pay(p.tokenOut, p.recipient, gross - routeFee - builderFee);
        if (amountOut < p.minOut) revert InsufficientOutput(amountOut, p.minOut);
        _record(p, gross, routeFee, builderFee, amountOut, policy);
    }

    /// @dev Sends `amount` and returns what `to` received: its balance change for an ERC-20 (a
    ///      fee-on-transfer token delivers less), the amount sent for ETH.
    function _pay(address token, address to, uint256 amount) private returns (uint256 received) {
        if (amount == 0) return 0;
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to, amount);
            return amount;
        }
        uint256 before = SafeTransferLib.balanceOf(token, to);
        SafeTransferLib.safeTransfer(token, to, amount);
        received = SafeTransferLib.balanceOf(token, to) - before;
    }

    /// @dev Pays both fees to the collector and records the settlement (one event per swap).
    function _record(
        SwapParams calldata p,
        uint256 gross,
        uint256 routeFee,
        uint256 builderFee,
        uint256 amountOut,
        IBuilderRegistry.FeePolicy memory policy
    ) private {
        uint256 fees = routeFee + builderFee;
        if (p.tokenOut != address(0) && fees != 0) SafeTransferLib.safeTransfer(p.tokenOut, address(collector), fees);
        ISettlementCollector.Settlement memory s;
        s.builderId = p.builderId;
        s.quoteId = p.quoteId;
        s.payer = msg.sender;
        s.keyIdHash = p.keyIdHash;
        s.recipient = p.recipient;
        s.tokenIn = p.tokenIn;
        s.amountIn = p.amountIn;
        s.tokenOut = p.tokenOut;
        s.grossAmountOut = gross;
        s.routeFee = routeFee;
        s.builderFee = builderFee;
        s.amountOut = amountOut;
        s.builderRecipient = policy.builderRecipient;
        s.policyVersion = policy.policyVersion;
        collector.settle{value: p.tokenOut == address(0) ? fees : 0}(s, policy.treasury);
    }
}
