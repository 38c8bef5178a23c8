// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPolicyMirror} from "../interfaces/IPolicyMirror.sol";
import {PolicyWords} from "../libraries/PolicyWords.sol";
import {RegistryState} from "./RegistryState.sol";

/// @title PolicyWriteThrough
/// @notice How the registry keeps the executor's copy of its fee policy (`IPolicyMirror`) equal to its own:
///         every change to what a swap is charged by is written through in the same call (the policy word and
///         every pair's word, which copies part of it; a builder's word), and nothing that needs a copied word
///         can be recorded before governance names the executor.
abstract contract PolicyWriteThrough is RegistryState {
    /// @dev Lists a pair that now has a fee of its own, and sets its filter bit. Its word and the policy word
    ///      are written through by the policy bump that follows.
    function _addFeePair(bytes32 key) internal {
        if (_feePairs.length == MAX_PAIR_FEES) revert TooManyPairFees(MAX_PAIR_FEES);
        _feePairs.push(key);
        _feePairPlace[key] = _feePairs.length;
        _refilter();
    }

    /// @dev Unlists a pair whose own fee is cleared (the last listed pair takes its place).
    function _removeFeePair(bytes32 key) internal {
        uint256 place = _feePairPlace[key];
        bytes32 last = _feePairs[_feePairs.length - 1];
        _feePairs[place - 1] = last;
        _feePairPlace[last] = place;
        _feePairs.pop();
        delete _feePairPlace[key];
        _refilter();
    }

    /// @dev The pair filter from the list: each listed pair's bit, so a bit stays set while any pair on it
    ///      has a fee of its own (at most `MAX_PAIR_FEES` reads, which the write-through reads again warm).
    function _refilter() private {
        uint256 filter;
        uint256 count = _feePairs.length;
        for (uint256 i; i < count; ++i) {
            // forge-lint: disable-next-line(incorrect-shift) bit `pairBit` (0..127) of the filter
            filter |= 1 << PolicyWords.pairBit(_feePairs[i]);
        }
        // forge-lint: disable-next-line(unsafe-typecast) every bit set is below 128
        _pairFilter = uint128(filter);
    }

    /// @dev The executor whose copy is written; reverts while none is named, so no record can miss it.
    function _mirror() internal view returns (IPolicyMirror mirror) {
        mirror = executor;
        if (address(mirror) == address(0)) revert ExecutorNotSet();
    }

    /// @dev Writes the policy word through, and each listed pair's word (which copies part of it), once an
    ///      executor is named (`setExecutor` writes the policy word then; no pair can have a fee before).
    function _syncPolicy() internal {
        IPolicyMirror mirror = executor;
        if (address(mirror) == address(0)) return;
        uint256 policy = _policyWord();
        mirror.syncPolicy(policy);
        uint256 count = _feePairs.length;
        for (uint256 i; i < count; ++i) {
            bytes32 key = _feePairs[i];
            mirror.syncPairFee(key, _pairWord(policy, key));
        }
    }

    /// @dev Bumps the builder's version after a change to it, and writes its word through.
    function _bump(bytes32 builderId, Builder storage b) internal returns (uint32 version) {
        version = b.version + 1;
        b.version = version;
        _mirror().syncBuilder(builderId, _builderWord(b));
    }

    function _bumpPolicy() internal returns (uint64) {
        uint56 version = _config.policyVersion + 1;
        _config.policyVersion = version;
        _syncPolicy();
        return version;
    }
}
