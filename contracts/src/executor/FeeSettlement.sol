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
///         receipt is measured and checked against `minOut`. A swap is recorded (one `Settled` event) when it
///         is attributed to a builder or charges a fee: an unattributed swap that charges nothing has nothing
///         to settle and no builder history to appear in, so it spends no gas on a record.
abstract contract FeeSettlement is ExecutorBase {
    /// @return routeBps The service fee charged: `min(quoted, policy, 50)`.
    /// @return builderBps The builder fee charged, likewise.
    function _chargedBps(SwapParams calldata p, IBuilderRegistry.FeePolicy memory policy)
        internal
        pure
        returns (uint16 routeBps, uint16 builderBps)
    {
        routeBps = FeeMath.chargedBps(p.maxRouteFeeBps, policy.routeFeeBps);
        builderBps = FeeMath.chargedBps(p.maxBuilderFeeBps, policy.builderFeeCapBps);
    }

    /// @param gross What the route delivered here.
    /// @return amountOut What the recipient received.
    function _settle(SwapParams calldata p, uint256 gross, IBuilderRegistry.FeePolicy memory policy)
        internal
        returns (uint256 amountOut)
    {
        (uint16 routeBps, uint16 builderBps) = _chargedBps(p, policy);
        uint256 routeFee = FeeMath.fee(gross, routeBps);
        uint256 builderFee = FeeMath.fee(gross, builderBps);
        amountOut = _pay(p.tokenOut, p.recipient, gross - routeFee - builderFee);
        if (amountOut < p.minOut) revert InsufficientOutput(amountOut, p.minOut);
        if (routeBps != 0 || builderBps != 0 || p.builderId != bytes32(0)) {
            _record(p, gross, routeFee, builderFee, amountOut, policy);
        }
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
    ) internal {
        uint256 fees = routeFee + builderFee;
        if (p.tokenOut != address(0) && fees != 0) SafeTransferLib.safeTransfer(p.tokenOut, address(collector), fees);
        _callSettle(p, gross, routeFee, builderFee, amountOut, policy, p.tokenOut == address(0) ? fees : 0);
    }

    /// @dev `collector.settle(Settlement, treasury)`, encoded in place from the swap's calldata (the
    ///      fourteen struct words in `Settlement` order, then the treasury) instead of building the struct
    ///      in memory and copying it again. The address fields of `p` were validated by `_checkTerms`.
    function _callSettle(
        SwapParams calldata p,
        uint256 gross,
        uint256 routeFee,
        uint256 builderFee,
        uint256 amountOut,
        IBuilderRegistry.FeePolicy memory policy,
        uint256 value
    ) private {
        bytes4 selector = ISettlementCollector.settle.selector;
        address target = address(collector);
        assembly ("memory-safe") {
            let m := mload(0x40)
            let mask := 0xffffffffffffffffffffffffffffffffffffffff
            mstore(m, selector)
            mstore(add(m, 0x04), calldataload(add(p, 0x100))) // builderId
            mstore(add(m, 0x24), calldataload(add(p, 0x120))) // quoteId
            mstore(add(m, 0x44), caller()) // payer
            mstore(add(m, 0x64), calldataload(add(p, 0x140))) // keyIdHash
            mstore(add(m, 0x84), and(calldataload(add(p, 0x80)), mask)) // recipient
            mstore(add(m, 0xa4), and(calldataload(p), mask)) // tokenIn
            mstore(add(m, 0xc4), calldataload(add(p, 0x40))) // amountIn
            mstore(add(m, 0xe4), and(calldataload(add(p, 0x20)), mask)) // tokenOut
            mstore(add(m, 0x104), gross)
            mstore(add(m, 0x124), routeFee)
            mstore(add(m, 0x144), builderFee)
            mstore(add(m, 0x164), amountOut)
            mstore(add(m, 0x184), and(mload(add(policy, 0x40)), mask)) // builderRecipient
            mstore(add(m, 0x1a4), and(mload(add(policy, 0x80)), 0xffffffffffffffff)) // policyVersion
            mstore(add(m, 0x1c4), and(mload(add(policy, 0x60)), mask)) // treasury
            if iszero(call(gas(), target, value, m, 0x1e4, 0, 0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }
}
