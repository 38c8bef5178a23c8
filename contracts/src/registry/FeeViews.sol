// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {PairKey} from "../libraries/PairKey.sol";
import {PolicyWords} from "../libraries/PolicyWords.sol";
import {RegistryState} from "./RegistryState.sol";

/// @title FeeViews
/// @notice What the registry says a swap is charged: the fee policy as a struct (`feePolicy`, what quotes
///         read), as the executor's packed terms (`feeTerms`, `builderTerms`), and the schedule's parts.
abstract contract FeeViews is RegistryState {
    /// @inheritdoc IBuilderRegistry
    function feePolicy(address tokenIn, address tokenOut, bytes32 builderId)
        external
        view
        returns (FeePolicy memory policy)
    {
        Config memory config = _config;
        policy.treasury = config.treasury;
        policy.policyVersion = config.policyVersion;
        if (!config.commissioned) return policy;
        Builder storage b = _builders[builderId];
        // Only registered builders can be enabled, so an unknown builder is never paid.
        bool builderPaid = b.enabled;
        if (builderPaid && b.hasRouteFee) {
            policy.routeFeeBps = b.routeFeeBps;
        } else {
            (policy.routeFeeBps, policy.pairFee) = _scheduleFee(config.defaultRouteFeeBps, tokenIn, tokenOut);
        }
        if (builderPaid) {
            policy.builderFeeCapBps = b.maxBuilderFeeBps;
            policy.builderRecipient = b.recipient;
        }
    }

    /// @inheritdoc IBuilderRegistry
    /// @dev `feePolicy` without the treasury, packed in one word: the executor's per-swap read, three cold
    ///      slots at most (the configuration, the builder, the pair's fee), each loaded once as a word.
    function feeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256 terms) {
        return _terms(tokenIn, tokenOut, builderId, true);
    }

    /// @inheritdoc IBuilderRegistry
    function builderTerms(bytes32 builderId) external view returns (uint256 terms) {
        return _terms(address(0), address(0), builderId, false);
    }

    /// @dev `feeTerms`, the schedule's fee read only `withRouteFee` (else the service fee bits stay zero): the
    ///      same computation as the executor's copy makes (`PolicyMirror`), from the registry's own words.
    function _terms(address tokenIn, address tokenOut, bytes32 builderId, bool withRouteFee)
        private
        view
        returns (uint256 terms)
    {
        uint256 policy = _policyWord();
        uint256 builder = builderId == bytes32(0) ? 0 : _builderWord(_builders[builderId]);
        bool fromSchedule;
        (terms, fromSchedule) = PolicyWords.terms(policy, builder, withRouteFee);
        if (fromSchedule) {
            terms = PolicyWords.withRouteFee(
                terms, PolicyWords.scheduleFee(policy, _pairWord(policy, PairKey.key(tokenIn, tokenOut)))
            );
        }
    }

    /// @inheritdoc IBuilderRegistry
    function recordPolicy(bytes32 builderId) external view returns (address builderRecipient, uint64 policyVersion_) {
        Config memory config = _config;
        policyVersion_ = config.policyVersion;
        if (!config.commissioned) return (address(0), policyVersion_);
        Builder storage b = _builders[builderId];
        if (b.enabled) builderRecipient = b.recipient;
    }

    /// @inheritdoc IBuilderRegistry
    /// @dev The schedule (or the enabled builder's override) whether or not the registry is commissioned;
    ///      `feePolicy` is what the executor charges.
    function routeFeeBps(address tokenIn, address tokenOut, bytes32 builderId)
        external
        view
        returns (uint16 bps, uint64 policyVersion_)
    {
        Config memory config = _config;
        Builder storage b = _builders[builderId];
        (bps,) = b.enabled && b.hasRouteFee
            ? (b.routeFeeBps, false)
            : _scheduleFee(config.defaultRouteFeeBps, tokenIn, tokenOut);
        policyVersion_ = config.policyVersion;
    }

    /// @notice The standard schedule's fee for the pair: its override, else the default.
    function pairRouteFee(address tokenA, address tokenB) external view returns (uint16 bps, bool isOverride) {
        return _scheduleFee(_config.defaultRouteFeeBps, tokenA, tokenB);
    }

    /// @inheritdoc IBuilderRegistry
    function feePairs() external view returns (bytes32[] memory) {
        return _feePairs;
    }
}
