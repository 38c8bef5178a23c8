// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPolicyMirror} from "../interfaces/IPolicyMirror.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title PolicyMirror
/// @notice The executor's copy of the registry's fee policy (`IPolicyMirror`). A swap that charges a fee reads
///         the policy word and its builder's word from here, and its pair's word only when the policy word's
///         filter says the pair may have a fee of its own: two slots of its own instead of a call to another
///         contract (a cold account) reading three. A swap that says its pair has a fee of its own reads the
///         pair's word in the policy word's place (it copies what the swap needs of it), so it reads two as
///         well; a wrong word costs a read and never changes a fee.
/// @dev Until the registry names this executor (`BuilderRegistry.setExecutor`), the policy word is zero:
///      uncommissioned, so nothing is charged.
abstract contract PolicyMirror is ExecutorBase, IPolicyMirror {
    uint256 private _policyWord;
    mapping(bytes32 builderId => uint256) private _builderWords;
    mapping(bytes32 pairKey => uint256) private _pairWords;

    modifier onlyRegistry() {
        if (msg.sender != address(registry)) revert NotRegistry(msg.sender);
        if (_entered()) revert Reentrancy();
        _;
    }

    /// @inheritdoc IPolicyMirror
    function syncPolicy(uint256 word) external onlyRegistry {
        _policyWord = word;
    }

    /// @inheritdoc IPolicyMirror
    function syncBuilder(bytes32 builderId, uint256 word) external onlyRegistry {
        _builderWords[builderId] = word;
    }

    /// @inheritdoc IPolicyMirror
    function syncPairFee(bytes32 pairKey, uint256 word) external onlyRegistry {
        _pairWords[pairKey] = word;
    }

    /// @inheritdoc IPolicyMirror
    function feeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256) {
        return _mirroredTerms(tokenIn, tokenOut, builderId, true, false);
    }

    /// @inheritdoc IPolicyMirror
    function pairFirstFeeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256) {
        return _mirroredTerms(tokenIn, tokenOut, builderId, true, true);
    }

    /// @inheritdoc IPolicyMirror
    function policyWord() external view returns (uint256) {
        return _policyWord;
    }

    /// @inheritdoc IPolicyMirror
    function pairWord(bytes32 pairKey) external view returns (uint256) {
        return _pairWords[pairKey];
    }

    /// @dev `feeTerms`, the service fee read only when `routeFeeWanted` (else its bits stay zero and the pair
    ///      is not looked at): `PolicyWords.terms` and the schedule's fee, as the registry computes them
    ///      (`BuilderRegistry._terms`), inlined for the swap's hot path with `PolicyWords`' bit offsets as
    ///      literals. No builder (no code hashes to zero) reads no builder word; the pair's word is read only
    ///      when the policy word's filter says the pair may have a fee of its own, or first when `pairFirst`:
    ///      a pair's word is a policy word with the pair's fee as the default and no filter, so one that is
    ///      set stands in for it, and a zero one sends the swap to the policy word. `PolicyMirror.t.sol` holds
    ///      both ways to the registry's answer.
    function _mirroredTerms(address tokenIn, address tokenOut, bytes32 builderId, bool routeFeeWanted, bool pairFirst)
        internal
        view
        returns (uint256 t)
    {
        assembly ("memory-safe") {
            // The pair's key (`PairKey.key`). Addresses from Solidity may carry dirty upper bits here, so both
            // are cleaned.
            function pairKey(a, b) -> key {
                let token0 := and(a, 0xffffffffffffffffffffffffffffffffffffffff)
                let token1 := and(b, 0xffffffffffffffffffffffffffffffffffffffff)
                if gt(token0, token1) {
                    let swapped := token0
                    token0 := token1
                    token1 := swapped
                }
                mstore(0x00, shl(96, token0))
                mstore(0x14, shl(96, token1))
                key := keccak256(0x00, 0x28)
            }
            // The pair's word.
            function pairWordOf(key, words) -> word {
                mstore(0x00, key)
                mstore(0x20, words)
                word := sload(keccak256(0x00, 0x40))
            }
            let policy := 0
            if pairFirst { policy := pairWordOf(pairKey(tokenIn, tokenOut), _pairWords.slot) }
            if iszero(policy) { policy := sload(_policyWord.slot) }
            t := shl(160, and(policy, 0xffffffffffffff)) // the policy version
            // Uncommissioned: nothing is charged.
            if and(shr(72, policy), 0xff) {
                let builder := 0
                if builderId {
                    mstore(0x00, builderId)
                    mstore(0x20, _builderWords.slot)
                    builder := sload(keccak256(0x00, 0x40))
                }
                // Only an enabled builder is paid, and only its override applies.
                let paid := iszero(iszero(and(shr(216, builder), 0xff)))
                if paid {
                    t := or(t, or(shl(224, and(shr(176, builder), 0xffff)), and(builder, sub(shl(160, 1), 1))))
                }
                if routeFeeWanted {
                    let bps := and(shr(192, builder), 0xffff)
                    if iszero(and(paid, iszero(iszero(and(shr(208, builder), 0xff))))) {
                        // The schedule: the pair's own fee if it has one, else the default (a pair's word read
                        // first holds the pair's fee there, and no filter).
                        bps := and(shr(56, policy), 0xffff)
                        if shr(128, policy) {
                            let key := pairKey(tokenIn, tokenOut)
                            if and(shr(add(128, and(key, 127)), policy), 1) {
                                let pair := pairWordOf(key, _pairWords.slot)
                                if pair { bps := and(shr(56, pair), 0xffff) }
                            }
                        }
                    }
                    t := or(t, shl(240, bps))
                }
            }
        }
    }
}
