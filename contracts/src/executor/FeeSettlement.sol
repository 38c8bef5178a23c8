// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {ISettlementCollector} from "../interfaces/ISettlementCollector.sol";
import {FeeMath} from "../libraries/FeeMath.sol";
import {ExecutorBase} from "./ExecutorBase.sol";
import {PolicyMirror} from "./PolicyMirror.sol";

/// @title FeeSettlement
/// @notice The executor as the reviewed collector (`ISettlementCollector`). Each fee is
///         `min(quoted bps, registry policy, 50)` of the gross output (`_fees`). When one is charged, the
///         route's last pools pay the executor, which measures what arrived, credits both fees in one packed
///         slot, pays the recipient the rest and emits `Settled` (`_settle`). An attributed swap that charges
///         nothing owes nothing: it emits `Attributed` and stores nothing. An unattributed swap that charges
///         nothing has nothing to settle and no builder history to appear in, so it spends no gas on a record.
/// @dev What the executor holds of a token is what it owes (the credits) plus dust it owns (anything sent to
///      it outside a swap); a swap never spends either, since every amount it moves is measured as it
///      arrives.
abstract contract FeeSettlement is ExecutorBase, PolicyMirror, ISettlementCollector {
    /// @dev Per (account, token): the builder fee credited in the low 128 bits, the service fee in bits
    ///      128..254, and bit 255 set once the slot was first written, so emptying it by a claim never returns
    ///      it to zero (the next fee then writes a non-zero slot: 2.9k instead of 20k).
    mapping(address account => mapping(address token => uint256)) private _credits;

    uint256 private constant BUILDER_MASK = 0xffffffffffffffffffffffffffffffff; // type(uint128).max
    uint256 private constant SERVICE_MAX = 0x7fffffffffffffffffffffffffffffff; // type(uint128).max >> 1
    uint256 private constant MARKED = 0x8000000000000000000000000000000000000000000000000000000000000000; // 1 << 255

    /// @dev The registry's policy for the swap (the executor's copy of it), read only as far as the swap needs
    ///      it, and the fees charged:
    ///      each `min(quoted, policy, 50)`, the service fee quoted as `maxRouteBps` (`p.maxRouteFeeBps` for our
    ///      routes, 0 for an aggregator's: docs/rules.md, fee rule 2). With both quoted caps at zero no fee can
    ///      be charged whatever the policy says, so nothing is read: an attributed swap's `Attributed` event
    ///      leaves the builder recipient and policy version to its reader, who reads them from the registry at
    ///      the event's block.
    /// @return terms The swap's `feeTerms`, as the registry words them (zero when nothing was read).
    ///      `pairFirst` says the pair has a fee of its own (`IExecutor.SwapParams.maxRouteFeeBps`, bit 15): its
    ///      word is read in the policy word's place.
    function _fees(SwapParams calldata p, uint16 maxRouteBps, bool pairFirst)
        internal
        view
        returns (uint256 terms, uint16 routeBps, uint16 builderBps)
    {
        uint16 maxBuilderBps = p.maxBuilderFeeBps;
        if (maxRouteBps != 0 || maxBuilderBps != 0) {
            terms = _mirroredTerms(p.tokenIn, p.tokenOut, p.builderId, maxRouteBps != 0, pairFirst);
            // forge-lint: disable-next-line(unsafe-typecast) the top 16 bits
            routeBps = FeeMath.chargedBps(maxRouteBps, uint16(terms >> 240));
            // forge-lint: disable-next-line(unsafe-typecast) bits 224..239
            builderBps = FeeMath.chargedBps(maxBuilderBps, uint16(terms >> 224));
        }
    }

    /// @dev Settles `gross` of `p.tokenOut`, already here: credits both fees, pays the recipient the rest and
    ///      emits `Settled`.
    /// @return amountOut What the recipient received.
    function _settle(SwapParams calldata p, uint256 terms, uint16 routeBps, uint16 builderBps, uint256 gross)
        internal
        returns (uint256 amountOut)
    {
        uint256 routeFee = FeeMath.fee(gross, routeBps);
        uint256 builderFee = FeeMath.fee(gross, builderBps);
        // forge-lint: disable-next-line(unsafe-typecast) bits 0..159 of the terms: the builder's payout wallet
        address account = address(uint160(terms));
        if (builderFee != 0 && account == address(0)) revert MissingFeeRecipient();
        if (routeFee != 0 || builderFee != 0) _credit(account, p.tokenOut, routeFee, builderFee);
        amountOut = _pay(p.tokenOut, p.recipient, gross - routeFee - builderFee);
        _emitSettled(p, gross, routeFee, builderFee, amountOut, terms);
    }

    /// @dev Adds both fees to `account`'s slot for `token`: one storage write. The sums cannot wrap: a fee
    ///      is at most 50 bps of an amount that fits 256 bits.
    function _credit(address account, address token, uint256 routeFee, uint256 builderFee) private {
        bytes4 overflow = CreditOverflow.selector;
        assembly ("memory-safe") {
            // Addresses from Solidity may carry dirty upper bits here (`account` is cut from the terms word).
            let mask := 0xffffffffffffffffffffffffffffffffffffffff
            token := and(token, mask)
            mstore(0x00, and(account, mask))
            mstore(0x20, _credits.slot)
            mstore(0x20, keccak256(0x00, 0x40))
            mstore(0x00, token)
            let slot := keccak256(0x00, 0x40)
            let credits := sload(slot)
            let builder := add(and(credits, BUILDER_MASK), builderFee)
            let service := add(and(shr(128, credits), SERVICE_MAX), routeFee)
            if or(gt(builder, BUILDER_MASK), gt(service, SERVICE_MAX)) {
                mstore(0x00, overflow)
                mstore(0x04, token)
                revert(0x00, 0x24)
            }
            sstore(slot, or(MARKED, or(shl(128, service), builder)))
        }
    }

    /// @inheritdoc ISettlementCollector
    function claim(address token, address to) external returns (uint256 amount) {
        _checkClaim(to);
        uint256 slot = _credits[msg.sender][token];
        amount = slot & BUILDER_MASK;
        if (amount == 0) revert NothingToClaim(msg.sender, token);
        _credits[msg.sender][token] = slot & ~BUILDER_MASK;
        emit Claimed(msg.sender, token, to, amount);
        _transferOut(token, to, amount);
    }

    /// @inheritdoc ISettlementCollector
    function claimService(address token, address[] calldata accounts, address to) external returns (uint256 amount) {
        _checkClaim(to);
        if (msg.sender != registry.treasury()) revert NotTreasury(msg.sender);
        for (uint256 i; i < accounts.length; ++i) {
            uint256 slot = _credits[accounts[i]][token];
            uint256 service = (slot >> 128) & SERVICE_MAX;
            if (service == 0) continue;
            amount += service;
            _credits[accounts[i]][token] = MARKED | (slot & BUILDER_MASK);
        }
        if (amount == 0) revert NothingToClaim(msg.sender, token);
        emit ServiceClaimed(msg.sender, token, to, amount);
        _transferOut(token, to, amount);
    }

    /// @inheritdoc ISettlementCollector
    function claimable(address recipient, address token) external view returns (uint256) {
        return _credits[recipient][token] & BUILDER_MASK;
    }

    /// @inheritdoc ISettlementCollector
    function serviceClaimable(address account, address token) external view returns (uint256) {
        return (_credits[account][token] >> 128) & SERVICE_MAX;
    }

    /// @dev A claim never runs inside a swap (whose amounts are measured by balance) and never burns.
    function _checkClaim(address to) private view {
        if (_entered()) revert Reentrancy();
        if (to == address(0)) revert ZeroAddress();
    }

    /// @dev Sends `amount` and returns what `to` received: its balance change for an ERC-20 (a
    ///      fee-on-transfer token delivers less), the amount sent for ETH.
    function _pay(address token, address to, uint256 amount) internal returns (uint256 received) {
        if (token == address(0)) {
            _sendNative(to, amount);
            return amount;
        }
        uint256 before = SafeTransferLib.balanceOf(token, to);
        SafeTransferLib.safeTransfer(token, to, amount);
        received = SafeTransferLib.balanceOf(token, to) - before;
    }

    /// @dev `who`'s balance of `token` (address(0): ETH).
    function _balanceOf(address token, address who) internal view returns (uint256) {
        return token == address(0) ? who.balance : SafeTransferLib.balanceOf(token, who);
    }

    function _transferOut(address token, address to, uint256 amount) internal {
        if (token == address(0)) _sendNative(to, amount);
        else SafeTransferLib.safeTransfer(token, to, amount);
    }

    /// @dev Emits `Attributed` for a swap that charged no fee, so `amountOut` is gross and net alike: the
    ///      event alone is the record (nothing is owed, so nothing is stored, and no other contract is called).
    function _emitAttributed(SwapParams calldata p, uint256 amountOut) internal {
        bytes32 topic0 = Attributed.selector;
        uint256 m = _eventHead(p);
        assembly ("memory-safe") {
            mstore(add(m, 0xa0), amountOut)
            log4(m, 0xc0, topic0, calldataload(add(p, 0x100)), calldataload(add(p, 0x120)), caller())
        }
    }

    /// @dev `Settled` from the swap's calldata and the measured amounts (fourteen event arguments are too many
    ///      for the legacy code generator's stack).
    function _emitSettled(
        SwapParams calldata p,
        uint256 gross,
        uint256 routeFee,
        uint256 builderFee,
        uint256 amountOut,
        uint256 terms
    ) private {
        bytes32 topic0 = Settled.selector;
        uint256 m = _eventHead(p);
        assembly ("memory-safe") {
            mstore(add(m, 0xa0), gross)
            mstore(add(m, 0xc0), routeFee)
            mstore(add(m, 0xe0), builderFee)
            mstore(add(m, 0x100), amountOut)
            mstore(add(m, 0x120), and(terms, 0xffffffffffffffffffffffffffffffffffffffff)) // builderRecipient
            mstore(add(m, 0x140), and(shr(160, terms), 0xffffffffffffffff)) // policyVersion
            log4(m, 0x160, topic0, calldataload(add(p, 0x100)), calldataload(add(p, 0x120)), caller())
        }
    }

    /// @dev The five data words both records begin with (keyIdHash, recipient, tokenIn, amountIn, tokenOut),
    ///      at free memory (not claimed: the caller logs them at once). The address fields of `p` were
    ///      validated by `_checkTerms`; the payer is the caller.
    function _eventHead(SwapParams calldata p) private pure returns (uint256 m) {
        assembly ("memory-safe") {
            let mask := 0xffffffffffffffffffffffffffffffffffffffff
            m := mload(0x40)
            mstore(m, calldataload(add(p, 0x140))) // keyIdHash
            mstore(add(m, 0x20), and(calldataload(add(p, 0x80)), mask)) // recipient
            mstore(add(m, 0x40), and(calldataload(p), mask)) // tokenIn
            mstore(add(m, 0x60), calldataload(add(p, 0x40))) // amountIn
            mstore(add(m, 0x80), and(calldataload(add(p, 0x20)), mask)) // tokenOut
        }
    }
}
