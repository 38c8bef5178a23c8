// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {ISettlementCollector} from "../interfaces/ISettlementCollector.sol";
import {FeeMath} from "../libraries/FeeMath.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title FeeSettlement
/// @notice The executor's side of a settlement. Each fee is `min(quoted bps, registry policy, 50)` of the
///         gross output (`_fees`); when one is charged, the gross output goes to the SettlementCollector, which keeps
///         both fees and pays the recipient the rest (`settle`, one `Settled` event). An attributed swap that
///         charges nothing owes nothing: it emits `Attributed` itself and stores nothing. An unattributed swap
///         that charges nothing has nothing to settle and no builder history to appear in, so it spends no gas
///         on a record.
abstract contract FeeSettlement is ExecutorBase {
    /// @dev The registry's policy for the swap, read only as far as the swap needs it, and the fees charged:
    ///      each `min(quoted, policy, 50)`, the service fee quoted as `maxRouteBps` (`p.maxRouteFeeBps` for our
    ///      routes, 0 for an aggregator's: docs/rules.md, fee rule 2). With both quoted caps at zero no fee can
    ///      be charged whatever the policy says, so nothing is read: an attributed swap's `Attributed` event
    ///      leaves the builder recipient and policy version to its reader, who reads them from the registry at
    ///      the event's block.
    function _fees(SwapParams calldata p, uint16 maxRouteBps)
        internal
        view
        returns (IBuilderRegistry.FeePolicy memory policy, uint16 routeBps, uint16 builderBps)
    {
        (uint16 maxBuilderBps, bytes32 builderId) = (p.maxBuilderFeeBps, p.builderId);
        if (maxRouteBps != 0 || maxBuilderBps != 0) {
            policy = registry.feePolicy(p.tokenIn, p.tokenOut, builderId);
            routeBps = FeeMath.chargedBps(maxRouteBps, policy.routeFeeBps);
            builderBps = FeeMath.chargedBps(maxBuilderBps, policy.builderFeeCapBps);
        }
    }

    /// @dev `collector.settle(Order)` with the gross output already there (`value` of native ETH, or ERC-20
    ///      paid in by the route), encoded in place from the swap's calldata.
    /// @return amountOut What the recipient received.
    function _callSettle(
        SwapParams calldata p,
        IBuilderRegistry.FeePolicy memory policy,
        uint16 routeBps,
        uint16 builderBps,
        uint256 value
    ) internal returns (uint256 amountOut) {
        uint256 m = _encodeHead(ISettlementCollector.settle.selector, p);
        address target = address(collector);
        assembly ("memory-safe") {
            mstore(add(m, 0x104), and(mload(add(policy, 0x40)), 0xffffffffffffffffffffffffffffffffffffffff)) // builderRecipient
            mstore(add(m, 0x124), and(mload(add(policy, 0x80)), 0xffffffffffffffff)) // policyVersion
            mstore(add(m, 0x144), routeBps)
            mstore(add(m, 0x164), builderBps)
            if iszero(call(gas(), target, value, m, 0x184, 0, 0x20)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x20) { revert(0, 0) }
            amountOut := mload(0)
        }
    }

    /// @dev Emits `Attributed` for a swap that charged no fee, so `amountOut` is gross and net alike: the
    ///      event alone is the record (nothing is owed, so nothing is stored, and no other contract is called).
    function _emitAttributed(SwapParams calldata p, uint256 amountOut) internal {
        bytes32 topic0 = Attributed.selector;
        assembly ("memory-safe") {
            let mask := 0xffffffffffffffffffffffffffffffffffffffff
            let m := mload(0x40)
            mstore(m, calldataload(add(p, 0x140))) // keyIdHash
            mstore(add(m, 0x20), and(calldataload(add(p, 0x80)), mask)) // recipient
            mstore(add(m, 0x40), and(calldataload(p), mask)) // tokenIn
            mstore(add(m, 0x60), calldataload(add(p, 0x40))) // amountIn
            mstore(add(m, 0x80), and(calldataload(add(p, 0x20)), mask)) // tokenOut
            mstore(add(m, 0xa0), amountOut)
            log4(m, 0xc0, topic0, calldataload(add(p, 0x100)), calldataload(add(p, 0x120)), caller())
        }
    }

    /// @dev Claims memory for the call (selector and fourteen words at most) and writes the selector and the
    ///      eight words `Order` and `Settlement` begin with. The address fields of `p` were validated by
    ///      `_checkTerms`; the payer is the caller.
    function _encodeHead(bytes4 selector, SwapParams calldata p) private view returns (uint256 m) {
        assembly ("memory-safe") {
            let mask := 0xffffffffffffffffffffffffffffffffffffffff
            m := mload(0x40)
            mstore(0x40, add(m, 0x1e0))
            mstore(m, selector)
            mstore(add(m, 0x04), calldataload(add(p, 0x100))) // builderId
            mstore(add(m, 0x24), calldataload(add(p, 0x120))) // quoteId
            mstore(add(m, 0x44), caller()) // payer
            mstore(add(m, 0x64), calldataload(add(p, 0x140))) // keyIdHash
            mstore(add(m, 0x84), and(calldataload(add(p, 0x80)), mask)) // recipient
            mstore(add(m, 0xa4), and(calldataload(p), mask)) // tokenIn
            mstore(add(m, 0xc4), calldataload(add(p, 0x40))) // amountIn
            mstore(add(m, 0xe4), and(calldataload(add(p, 0x20)), mask)) // tokenOut
        }
    }
}
