// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {IPolicyMirror} from "../interfaces/IPolicyMirror.sol";
import {FeeMath} from "../libraries/FeeMath.sol";
import {PairKey} from "../libraries/PairKey.sol";
import {PolicyWords} from "../libraries/PolicyWords.sol";

/// @title RegistryState
/// @notice The builder registry's storage (`BuilderRegistry`), who may change it, and the words the fee policy
///         is read from: the policy word, a builder's word and a pair's word (`PolicyWords`), the registry's
///         own and the ones it writes to the executor's copy alike.
abstract contract RegistryState is IBuilderRegistry {
    /// @notice No fee in this registry is ever above 50 bps.
    uint16 public constant MAX_FEE_BPS = FeeMath.MAX_FEE_BPS;
    /// @notice At most this many pairs have a fee of their own: each change to the policy word rewrites each
    ///         one's word in the executor's copy.
    uint256 public constant MAX_PAIR_FEES = 64;

    /// @dev Slot 0 holds everything the executor reads per swap, so a fee lookup costs one SLOAD per builder.
    struct Builder {
        address recipient;
        uint16 builderFeeBps;
        uint16 maxBuilderFeeBps;
        uint16 routeFeeBps;
        bool hasRouteFee;
        bool enabled;
        uint32 version;
        address owner;
        address pendingOwner;
        string code;
    }

    /// @dev Everything the executor reads per swap besides the builder, in one slot.
    struct Config {
        address treasury;
        bool commissioned;
        uint16 defaultRouteFeeBps;
        uint16 defaultMaxBuilderFeeBps;
        uint56 policyVersion;
    }

    struct PairFee {
        bool set;
        uint16 bps;
    }

    /// @dev Bit offsets of the fields of `Config`'s slot (the compiler packs struct fields from the low bits
    ///      up, in declaration order). `Builder`'s first slot is `PolicyWords`' builder word as it is;
    ///      `test_feeTerms_matchesFeePolicy` holds it to the struct.
    uint256 internal constant CONFIG_COMMISSIONED_SHIFT = 160;
    uint256 internal constant CONFIG_DEFAULT_ROUTE_FEE_SHIFT = 168;
    uint256 internal constant CONFIG_POLICY_VERSION_SHIFT = 200;

    /// @notice Governance: commissions the registry, sets the schedule, suspends and caps builders.
    address public governance;
    /// @notice The account that may accept governance.
    address public pendingGovernance;

    Config internal _config;
    mapping(bytes32 pairKey => PairFee) internal _pairFees;
    mapping(bytes32 builderId => Builder) internal _builders;
    /// @notice The executor whose copy of the policy this registry writes (`setExecutor`, once).
    IPolicyMirror public executor;
    /// @dev The policy word's filter of the pairs with a fee of their own (each listed pair's bit, `_feePairs`).
    uint128 internal _pairFilter;
    /// @dev The pairs with a fee of their own, and each one's place in that list plus one.
    bytes32[] internal _feePairs;
    mapping(bytes32 pairKey => uint256) internal _feePairPlace;

    modifier onlyGovernance() {
        if (msg.sender != governance) revert NotGovernance(msg.sender);
        _;
    }

    modifier onlyBuilderOwner(bytes32 builderId) {
        if (msg.sender != _builders[builderId].owner) revert NotBuilderOwner(builderId, msg.sender);
        _;
    }

    /// @dev The policy word the executor's copy holds: the configuration's fields and the pair filter.
    function _policyWord() internal view returns (uint256) {
        uint256 config;
        assembly ("memory-safe") {
            config := sload(_config.slot)
        }
        // forge-lint: disable-next-item(unsafe-typecast) each field's own bits of the configuration's slot
        return PolicyWords.policy(
            uint8(config >> CONFIG_COMMISSIONED_SHIFT) != 0,
            uint16(config >> CONFIG_DEFAULT_ROUTE_FEE_SHIFT),
            uint56(config >> CONFIG_POLICY_VERSION_SHIFT),
            _pairFilter
        );
    }

    /// @dev The pair's word under `policy` (zero when it has no fee of its own).
    function _pairWord(uint256 policy, bytes32 key) internal view returns (uint256) {
        PairFee memory pairFee = _pairFees[key];
        return PolicyWords.pair(policy, pairFee.set, pairFee.bps);
    }

    /// @dev The builder's first slot as one word (its fields are read from it by the shifts above).
    function _builderWord(Builder storage b) internal view returns (uint256 value) {
        assembly ("memory-safe") {
            value := sload(b.slot)
        }
    }

    /// @dev The schedule's fee for the unordered pair: its own (`own`) when it has one, else the default.
    function _scheduleFee(uint16 defaultBps, address tokenA, address tokenB)
        internal
        view
        returns (uint16 bps, bool own)
    {
        PairFee memory pair = _pairFees[PairKey.key(tokenA, tokenB)];
        return pair.set ? (pair.bps, true) : (defaultBps, false);
    }

    function _registered(bytes32 builderId) internal view returns (Builder storage b) {
        b = _builders[builderId];
        if (b.owner == address(0)) revert UnknownBuilder(builderId);
    }

    function _checkCap(uint16 bps) internal pure {
        if (bps > MAX_FEE_BPS) revert FeeAboveCap(bps, MAX_FEE_BPS);
    }
}
