// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBuilderRegistry} from "./interfaces/IBuilderRegistry.sol";
import {IPolicyMirror} from "./interfaces/IPolicyMirror.sol";
import {BuilderCode} from "./libraries/BuilderCode.sol";
import {PairKey} from "./libraries/PairKey.sol";
import {FeeViews} from "./registry/FeeViews.sol";
import {PolicyWriteThrough} from "./registry/PolicyWriteThrough.sol";

/// @title BuilderRegistry
/// @notice Builder codes and profiles, the standard service fee schedule and the treasury. See
///         `IBuilderRegistry`.
/// @dev Experimental and unaudited. Registration is open to anyone (first come, first served); governance
///      can suspend a builder, cap its fee and override its service fee. Every change to what a swap is
///      charged by is written through to the executor's copy (`IPolicyMirror`) in the same call, so the
///      executor never calls the registry; builders and pair fees can be recorded only once governance has
///      named the executor (`setExecutor`), so the copy never lacks one. Its parts live in `registry/`: the
///      storage and its words (`RegistryState`), the write-through (`PolicyWriteThrough`), the fee views
///      (`FeeViews`).
contract BuilderRegistry is PolicyWriteThrough, FeeViews {
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

    /// @notice The schedule's default service fee.
    function defaultRouteFeeBps() external view returns (uint16) {
        return _config.defaultRouteFeeBps;
    }

    /// @notice The fee cap newly registered builders get.
    function defaultMaxBuilderFeeBps() external view returns (uint16) {
        return _config.defaultMaxBuilderFeeBps;
    }
}
