// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "./interfaces/IBuilderRegistry.sol";
import {BuilderCode} from "./libraries/BuilderCode.sol";
import {FeeMath} from "./libraries/FeeMath.sol";
import {PairKey} from "./libraries/PairKey.sol";
import {PolicyWords} from "./libraries/PolicyWords.sol";
import {IPolicyMirror} from "./interfaces/IPolicyMirror.sol";

/// @title BuilderRegistry
/// @notice Builder codes and profiles, the standard service fee schedule and the treasury. See
///         `IBuilderRegistry`.
/// @dev Experimental and unaudited. Registration is open to anyone (first come, first served); governance
///      can suspend a builder, cap its fee and override its service fee. Every change to what a swap is
///      charged by is written through to the executor's copy (`IPolicyMirror`) in the same call, so the
///      executor never calls the registry; builders and pair fees can be recorded only once governance has
///      named the executor (`setExecutor`), so the copy never lacks one.
contract BuilderRegistry is IBuilderRegistry {
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
    uint256 private constant CONFIG_COMMISSIONED_SHIFT = 160;
    uint256 private constant CONFIG_DEFAULT_ROUTE_FEE_SHIFT = 168;
    uint256 private constant CONFIG_POLICY_VERSION_SHIFT = 200;

    /// @notice Governance: commissions the registry, sets the schedule, suspends and caps builders.
    address public governance;
    /// @notice The account that may accept governance.
    address public pendingGovernance;

    Config private _config;
    mapping(bytes32 pairKey => PairFee) private _pairFees;
    mapping(bytes32 builderId => Builder) private _builders;
    /// @notice The executor whose copy of the policy this registry writes (`setExecutor`, once).
    IPolicyMirror public executor;
    /// @dev The policy word's filter of pairs with a fee of their own, and how many such pairs map to each bit.
    uint128 private _pairFilter;
    mapping(uint256 bit => uint256) private _pairsAtBit;
    /// @dev The pairs with a fee of their own, and each one's place in that list plus one.
    bytes32[] private _feePairs;
    mapping(bytes32 pairKey => uint256) private _feePairPlace;

    modifier onlyGovernance() {
        if (msg.sender != governance) revert NotGovernance(msg.sender);
        _;
    }

    modifier onlyBuilderOwner(bytes32 builderId) {
        if (msg.sender != _builders[builderId].owner) revert NotBuilderOwner(builderId, msg.sender);
        _;
    }

    /// @param defaultRouteFeeBps_ The schedule's default service fee.
    /// @param defaultMaxBuilderFeeBps_ The fee cap newly registered builders get.
    constructor(address governance_, address treasury_, uint16 defaultRouteFeeBps_, uint16 defaultMaxBuilderFeeBps_) {
        if (governance_ == address(0) || treasury_ == address(0)) revert ZeroAddress();
        _checkCap(defaultRouteFeeBps_);
        _checkCap(defaultMaxBuilderFeeBps_);
        governance = governance_;
        _config = Config(treasury_, false, defaultRouteFeeBps_, defaultMaxBuilderFeeBps_, 1);
        emit GovernanceTransferred(address(0), governance_);
        emit TreasurySet(treasury_);
        emit DefaultRouteFeeSet(defaultRouteFeeBps_, 1);
        emit DefaultMaxBuilderFeeSet(defaultMaxBuilderFeeBps_);
    }

    // ---------------------------------------------------------------- governance

    /// @notice Starts handing governance to `pending` (zero cancels).
    function transferGovernance(address pending) external onlyGovernance {
        pendingGovernance = pending;
        emit GovernanceTransferStarted(msg.sender, pending);
    }

    /// @notice Completes a governance handover.
    function acceptGovernance() external {
        if (msg.sender != pendingGovernance) revert NotPendingGovernance(msg.sender);
        emit GovernanceTransferred(governance, msg.sender);
        governance = msg.sender;
        pendingGovernance = address(0);
    }

    /// @notice Names the executor whose copy of the fee policy this registry keeps (once, before any builder
    ///         registers or pair fee is set), and writes the policy to it.
    function setExecutor(IPolicyMirror executor_) external onlyGovernance {
        if (address(executor_) == address(0)) revert ZeroAddress();
        if (address(executor) != address(0)) revert ExecutorAlreadySet(address(executor));
        executor = executor_;
        emit ExecutorSet(address(executor_));
        executor_.syncPolicy(_policyWord());
    }

    /// @notice Commissions (or decommissions) the registry. Uncommissioned, it charges no fees.
    function setCommissioned(bool commissioned_) external onlyGovernance {
        _config.commissioned = commissioned_;
        emit CommissionedSet(commissioned_);
        _syncPolicy();
    }

    /// @notice Sets the service fee recipient.
    function setTreasury(address treasury_) external onlyGovernance {
        if (treasury_ == address(0)) revert ZeroAddress();
        _config.treasury = treasury_;
        emit TreasurySet(treasury_);
    }

    /// @notice Sets the schedule's default service fee.
    function setDefaultRouteFee(uint16 bps) external onlyGovernance {
        _checkCap(bps);
        _config.defaultRouteFeeBps = bps;
        emit DefaultRouteFeeSet(bps, _bumpPolicy());
    }

    /// @notice Sets the service fee of the unordered pair (tokenA, tokenB).
    function setPairRouteFee(address tokenA, address tokenB, uint16 bps) external onlyGovernance {
        if (tokenA == tokenB) revert IdenticalTokens(tokenA);
        _checkCap(bps);
        _mirror();
        bytes32 key = PairKey.key(tokenA, tokenB);
        if (!_pairFees[key].set) _addFeePair(key);
        _pairFees[key] = PairFee(true, bps);
        (address token0, address token1) = PairKey.sort(tokenA, tokenB);
        emit PairRouteFeeSet(token0, token1, bps, _bumpPolicy());
    }

    /// @notice Removes the pair's override; the default applies again.
    function clearPairRouteFee(address tokenA, address tokenB) external onlyGovernance {
        bytes32 key = PairKey.key(tokenA, tokenB);
        if (_pairFees[key].set) {
            _removeFeePair(key);
            delete _pairFees[key];
            _mirror().syncPairFee(key, 0);
        }
        (address token0, address token1) = PairKey.sort(tokenA, tokenB);
        emit PairRouteFeeCleared(token0, token1, _bumpPolicy());
    }

    /// @notice Sets the fee cap newly registered builders get.
    function setDefaultMaxBuilderFee(uint16 bps) external onlyGovernance {
        _checkCap(bps);
        _config.defaultMaxBuilderFeeBps = bps;
        emit DefaultMaxBuilderFeeSet(bps);
    }

    /// @notice Caps a builder's fee; its default fee is lowered to the cap if above it.
    function setBuilderMaxFee(bytes32 builderId, uint16 maxBps) external onlyGovernance {
        _checkCap(maxBps);
        Builder storage b = _registered(builderId);
        b.maxBuilderFeeBps = maxBps;
        if (b.builderFeeBps > maxBps) b.builderFeeBps = maxBps;
        emit BuilderMaxFeeSet(builderId, maxBps, b.builderFeeBps, _bump(builderId, b));
    }

    /// @notice Overrides the service fee on trades attributed to the builder (while it is enabled).
    function setBuilderRouteFee(bytes32 builderId, uint16 bps) external onlyGovernance {
        _checkCap(bps);
        Builder storage b = _registered(builderId);
        b.routeFeeBps = bps;
        b.hasRouteFee = true;
        emit BuilderRouteFeeSet(builderId, bps, _bump(builderId, b));
    }

    /// @notice Removes the builder's service fee override: the standard schedule applies.
    function clearBuilderRouteFee(bytes32 builderId) external onlyGovernance {
        Builder storage b = _registered(builderId);
        b.routeFeeBps = 0;
        b.hasRouteFee = false;
        emit BuilderRouteFeeCleared(builderId, _bump(builderId, b));
    }

    /// @notice Suspends (false) or re-enables (true) a builder. A suspended builder is never paid and its
    ///         service fee override does not apply; its profile stays readable.
    function setBuilderEnabled(bytes32 builderId, bool enabled) external onlyGovernance {
        Builder storage b = _registered(builderId);
        b.enabled = enabled;
        emit BuilderEnabledSet(builderId, enabled, _bump(builderId, b));
    }

    // ---------------------------------------------------------------- builders

    /// @inheritdoc IBuilderRegistry
    function register(string calldata code, address recipient, uint16 builderFeeBps)
        external
        returns (bytes32 builderId)
    {
        if (!BuilderCode.isValid(bytes(code))) revert InvalidBuilderCode(code);
        if (recipient == address(0)) revert ZeroAddress();
        builderId = BuilderCode.id(bytes(code));
        Builder storage b = _builders[builderId];
        if (b.owner != address(0)) revert BuilderAlreadyRegistered(builderId);
        uint16 maxBps = _config.defaultMaxBuilderFeeBps;
        if (builderFeeBps > maxBps) revert FeeAboveCap(builderFeeBps, maxBps);
        b.recipient = recipient;
        b.builderFeeBps = builderFeeBps;
        b.maxBuilderFeeBps = maxBps;
        b.enabled = true;
        b.version = 1;
        b.owner = msg.sender;
        b.code = code;
        emit BuilderRegistered(builderId, code, msg.sender, recipient, builderFeeBps, maxBps);
        _mirror().syncBuilder(builderId, _builderWord(b));
    }

    /// @notice Sets the builder's payout wallet.
    function setRecipient(bytes32 builderId, address recipient) external onlyBuilderOwner(builderId) {
        if (recipient == address(0)) revert ZeroAddress();
        Builder storage b = _builders[builderId];
        b.recipient = recipient;
        emit BuilderRecipientSet(builderId, recipient, _bump(builderId, b));
    }

    /// @notice Sets the builder's default fee (at most its max fee).
    function setBuilderFee(bytes32 builderId, uint16 bps) external onlyBuilderOwner(builderId) {
        Builder storage b = _builders[builderId];
        if (bps > b.maxBuilderFeeBps) revert FeeAboveCap(bps, b.maxBuilderFeeBps);
        b.builderFeeBps = bps;
        emit BuilderFeeSet(builderId, bps, _bump(builderId, b));
    }

    /// @notice Starts handing the builder to `pending` (zero cancels).
    function transferOwnership(bytes32 builderId, address pending) external onlyBuilderOwner(builderId) {
        Builder storage b = _builders[builderId];
        b.pendingOwner = pending;
        emit BuilderOwnershipTransferStarted(builderId, msg.sender, pending, _bump(builderId, b));
    }

    /// @notice Completes a builder handover.
    function acceptOwnership(bytes32 builderId) external {
        Builder storage b = _builders[builderId];
        if (msg.sender != b.pendingOwner) revert NotPendingBuilderOwner(builderId, msg.sender);
        address previous = b.owner;
        b.owner = msg.sender;
        b.pendingOwner = address(0);
        emit BuilderOwnershipTransferred(builderId, previous, msg.sender, _bump(builderId, b));
    }

    // ---------------------------------------------------------------- views

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
            PairFee memory pair = _pairFees[PairKey.key(tokenIn, tokenOut)];
            (policy.routeFeeBps, policy.pairFee) = pair.set ? (pair.bps, true) : (config.defaultRouteFeeBps, false);
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
        bps = b.enabled && b.hasRouteFee ? b.routeFeeBps : _scheduleFee(config, tokenIn, tokenOut);
        policyVersion_ = config.policyVersion;
    }

    /// @notice The standard schedule's fee for the pair: its override, else the default.
    function pairRouteFee(address tokenA, address tokenB) external view returns (uint16 bps, bool isOverride) {
        PairFee memory pair = _pairFees[PairKey.key(tokenA, tokenB)];
        return pair.set ? (pair.bps, true) : (_config.defaultRouteFeeBps, false);
    }

    /// @inheritdoc IBuilderRegistry
    function builderById(bytes32 builderId) public view returns (BuilderProfile memory profile) {
        Builder storage b = _registered(builderId);
        profile = BuilderProfile({
            code: b.code,
            owner: b.owner,
            pendingOwner: b.pendingOwner,
            recipient: b.recipient,
            builderFeeBps: b.builderFeeBps,
            maxBuilderFeeBps: b.maxBuilderFeeBps,
            hasRouteFeeOverride: b.hasRouteFee,
            routeFeeBps: b.routeFeeBps,
            enabled: b.enabled,
            version: b.version
        });
    }

    /// @inheritdoc IBuilderRegistry
    function builderByCode(string calldata code) external view returns (BuilderProfile memory) {
        return builderById(BuilderCode.id(bytes(code)));
    }

    /// @notice Whether a builder is registered under `builderId`.
    function isRegistered(bytes32 builderId) external view returns (bool) {
        return _builders[builderId].owner != address(0);
    }

    /// @notice The builder id of `code`; reverts `InvalidBuilderCode` for a malformed code.
    function builderIdOf(string calldata code) external pure returns (bytes32) {
        if (!BuilderCode.isValid(bytes(code))) revert InvalidBuilderCode(code);
        return BuilderCode.id(bytes(code));
    }

    /// @inheritdoc IBuilderRegistry
    function commissioned() external view returns (bool) {
        return _config.commissioned;
    }

    /// @inheritdoc IBuilderRegistry
    function treasury() external view returns (address) {
        return _config.treasury;
    }

    /// @inheritdoc IBuilderRegistry
    function policyVersion() external view returns (uint64) {
        return _config.policyVersion;
    }

    /// @inheritdoc IBuilderRegistry
    function feePairs() external view returns (bytes32[] memory) {
        return _feePairs;
    }

    /// @notice The schedule's default service fee.
    function defaultRouteFeeBps() external view returns (uint16) {
        return _config.defaultRouteFeeBps;
    }

    /// @notice The fee cap newly registered builders get.
    function defaultMaxBuilderFeeBps() external view returns (uint16) {
        return _config.defaultMaxBuilderFeeBps;
    }

    // ---------------------------------------------------------------- internals

    /// @dev The policy word the executor's copy holds: the configuration's fields and the pair filter.
    function _policyWord() private view returns (uint256) {
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
    function _pairWord(uint256 policy, bytes32 key) private view returns (uint256) {
        PairFee memory pairFee = _pairFees[key];
        return PolicyWords.pair(policy, pairFee.set, pairFee.bps);
    }

    /// @dev Lists a pair that now has a fee of its own, and counts it under its filter bit. Its word and the
    ///      policy word are written through by the policy bump that follows.
    function _addFeePair(bytes32 key) private {
        if (_feePairs.length == MAX_PAIR_FEES) revert TooManyPairFees(MAX_PAIR_FEES);
        _feePairs.push(key);
        _feePairPlace[key] = _feePairs.length;
        _countPairFee(key, true);
    }

    /// @dev Unlists a pair whose own fee is cleared (the last listed pair takes its place).
    function _removeFeePair(bytes32 key) private {
        uint256 place = _feePairPlace[key];
        bytes32 last = _feePairs[_feePairs.length - 1];
        _feePairs[place - 1] = last;
        _feePairPlace[last] = place;
        _feePairs.pop();
        delete _feePairPlace[key];
        _countPairFee(key, false);
    }

    /// @dev Counts a pair fee set (`added`) or cleared under its filter bit, which is set while the count is
    ///      not zero.
    function _countPairFee(bytes32 key, bool added) private {
        uint256 bit = PolicyWords.pairBit(key);
        uint256 count = added ? _pairsAtBit[bit] + 1 : _pairsAtBit[bit] - 1;
        _pairsAtBit[bit] = count;
        // forge-lint: disable-next-line(unsafe-typecast,incorrect-shift) bit `bit` (0..127) of the filter
        uint128 mask = uint128(1 << bit);
        _pairFilter = count != 0 ? _pairFilter | mask : _pairFilter & ~mask;
    }

    /// @dev The executor whose copy is written; reverts while none is named, so no record can miss it.
    function _mirror() private view returns (IPolicyMirror mirror) {
        mirror = executor;
        if (address(mirror) == address(0)) revert ExecutorNotSet();
    }

    /// @dev Writes the policy word through, and each listed pair's word (which copies part of it), once an
    ///      executor is named (`setExecutor` writes the policy word then; no pair can have a fee before).
    function _syncPolicy() private {
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

    /// @dev The builder's first slot as one word (its fields are read from it by the shifts above).
    function _builderWord(Builder storage b) private view returns (uint256 value) {
        assembly ("memory-safe") {
            value := sload(b.slot)
        }
    }

    function _scheduleFee(Config memory config, address tokenIn, address tokenOut) private view returns (uint16) {
        PairFee memory pair = _pairFees[PairKey.key(tokenIn, tokenOut)];
        return pair.set ? pair.bps : config.defaultRouteFeeBps;
    }

    function _registered(bytes32 builderId) private view returns (Builder storage b) {
        b = _builders[builderId];
        if (b.owner == address(0)) revert UnknownBuilder(builderId);
    }

    /// @dev Bumps the builder's version after a change to it, and writes its word through.
    function _bump(bytes32 builderId, Builder storage b) private returns (uint32 version) {
        version = b.version + 1;
        b.version = version;
        _mirror().syncBuilder(builderId, _builderWord(b));
    }

    function _bumpPolicy() private returns (uint64) {
        uint56 version = _config.policyVersion + 1;
        _config.policyVersion = version;
        _syncPolicy();
        return version;
    }

    function _checkCap(uint16 bps) private pure {
        if (bps > MAX_FEE_BPS) revert FeeAboveCap(bps, MAX_FEE_BPS);
    }
}
