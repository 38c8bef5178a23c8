// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPolicyMirror} from "../interfaces/IPolicyMirror.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title PolicyMirror
/// @notice The executor's copy of the registry's fee policy (`IPolicyMirror`). A swap that charges a fee reads
///         the policy word and its builder's word from here, and its pair's word only when the policy word's
///         filter says the pair may have a fee of its own: two warm-able slots of its own instead of a call to
///         another contract (a cold account) reading three.
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
        return _mirroredTerms(tokenIn, tokenOut, builderId, true);
    }

    /// @inheritdoc IPolicyMirror
    function policyWord() external view returns (uint256) {
        return _policyWord;
    }

    /// @dev `feeTerms`, the service fee read only when `routeFeeWanted` (else its bits stay zero and the pair
    ///      is not looked at): `PolicyWords.terms` and the schedule's fee, as the registry computes them
    ///      (`BuilderRegistry._terms`), inlined for the swap's hot path with `PolicyWords`' bit offsets as
    ///      literals. No builder (no code hashes to zero) reads no builder word; the pair's word is read only
    ///      when the policy word's filter says the pair may have a fee of its own. `PolicyMirror.t.sol` holds
    ///      it to the registry's answer.
    function _mirroredTerms(address tokenIn, address tokenOut, bytes32 builderId, bool routeFeeWanted)
        internal
        view
        returns (uint256 t)
    {
        assembly ("memory-safe") {
            let policy := sload(_policyWord.slot)
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
                        // The schedule: the pair's own fee if it has one, else the default.
                        bps := and(shr(56, policy), 0xffff)
                        // Cleaned: addresses from Solidity may carry dirty upper bits here.
                        let token0 := and(tokenIn, 0xffffffffffffffffffffffffffffffffffffffff)
                        let token1 := and(tokenOut, 0xffffffffffffffffffffffffffffffffffffffff)
                        if gt(token0, token1) {
                            let swapped := token0
                            token0 := token1
                            token1 := swapped
                        }
                        mstore(0x00, shl(96, token0))
                        mstore(0x14, shl(96, token1))
                        let pairKey := keccak256(0x00, 0x28)
                        if and(shr(add(128, and(pairKey, 127)), policy), 1) {
                            mstore(0x00, pairKey)
                            mstore(0x20, _pairWords.slot)
                            let pair := sload(keccak256(0x00, 0x40))
                            if and(pair, 0xff) { bps := and(shr(8, pair), 0xffff) }
                        }
                    }
                    t := or(t, shl(240, bps))
                }
            }
        }
    }
}
