// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IBuilderRegistry
/// @notice On-chain builder attribution and fee policy: builder codes and their profiles, the
///         pair-dependent standard service fee schedule, the treasury and the commissioned flag.
/// @dev A builder code matches `^[A-Za-z0-9_-]{3,32}$` (case-sensitive) and its id is
///      `keccak256(bytes(code))`. Fees are basis points and never exceed `MAX_FEE_BPS` (50). Governance is a
///      role distinct from builder owners; both change hands in two steps.
interface IBuilderRegistry {
    /// @notice Everything the service's builder profile shows.
    /// @param routeFeeBps Service fee override; meaningful only when `hasRouteFeeOverride`.
    /// @param version Starts at 1 on registration, bumped on every change to the builder.
    struct BuilderProfile {
        string code;
        address owner;
        address pendingOwner;
        address recipient;
        uint16 builderFeeBps;
        uint16 maxBuilderFeeBps;
        bool hasRouteFeeOverride;
        uint16 routeFeeBps;
        bool enabled;
        uint32 version;
    }

    /// @notice What the executor charges for a swap, before applying the quoted caps.
    /// @param routeFeeBps Service fee (0 while the registry is not commissioned).
    /// @param builderFeeCapBps The builder's max fee; 0 for an unknown or disabled builder.
    /// @param builderRecipient The builder's payout wallet; zero when the builder is not payable.
    /// @param treasury Receives the service fee.
    /// @param policyVersion Bumped on every change to the standard fee schedule.
    /// @param pairFee The service fee is the pair's own (not the default, nor a builder's override): a swap
    ///        that says so (`IExecutor.SwapParams.maxRouteFeeBps`, bit 15) is charged by the pair's word in the
    ///        executor's copy instead of the policy word.
    struct FeePolicy {
        uint16 routeFeeBps;
        uint16 builderFeeCapBps;
        address builderRecipient;
        address treasury;
        uint64 policyVersion;
        bool pairFee;
    }

    /// @notice Governance handover started; `pending` must call `acceptGovernance`.
    event GovernanceTransferStarted(address indexed governance, address indexed pending);
    /// @notice Governance changed hands.
    event GovernanceTransferred(address indexed previous, address indexed governance);
    /// @notice The service fee recipient changed.
    event TreasurySet(address indexed treasury);
    /// @notice Governance commissioned (or decommissioned) the registry.
    event CommissionedSet(bool commissioned);
    /// @notice The executor whose copy of the fee policy the registry writes.
    event ExecutorSet(address indexed executor);
    /// @notice The schedule's default service fee changed.
    event DefaultRouteFeeSet(uint16 bps, uint64 policyVersion);
    /// @notice A pair's service fee override was set (`token0 < token1`).
    event PairRouteFeeSet(address indexed token0, address indexed token1, uint16 bps, uint64 policyVersion);
    /// @notice A pair's service fee override was removed; the default applies again.
    event PairRouteFeeCleared(address indexed token0, address indexed token1, uint64 policyVersion);
    /// @notice The max builder fee given to newly registered builders changed.
    event DefaultMaxBuilderFeeSet(uint16 bps);
    /// @notice A builder code was registered.
    event BuilderRegistered(
        bytes32 indexed builderId,
        string code,
        address indexed owner,
        address recipient,
        uint16 builderFeeBps,
        uint16 maxBuilderFeeBps
    );
    /// @notice The builder's payout wallet changed.
    event BuilderRecipientSet(bytes32 indexed builderId, address recipient, uint32 version);
    /// @notice The builder's default fee changed.
    event BuilderFeeSet(bytes32 indexed builderId, uint16 bps, uint32 version);
    /// @notice Governance changed the builder's fee cap (the default fee is clamped to it).
    event BuilderMaxFeeSet(bytes32 indexed builderId, uint16 maxBps, uint16 builderFeeBps, uint32 version);
    /// @notice Governance set a service fee override for the builder's trades.
    event BuilderRouteFeeSet(bytes32 indexed builderId, uint16 bps, uint32 version);
    /// @notice Governance removed the builder's service fee override.
    event BuilderRouteFeeCleared(bytes32 indexed builderId, uint32 version);
    /// @notice Governance suspended (false) or re-enabled (true) the builder.
    event BuilderEnabledSet(bytes32 indexed builderId, bool enabled, uint32 version);
    /// @notice The builder's owner started a handover (`pendingOwner` zero cancels it).
    event BuilderOwnershipTransferStarted(
        bytes32 indexed builderId, address indexed owner, address indexed pendingOwner, uint32 version
    );
    /// @notice The pending owner accepted the builder.
    event BuilderOwnershipTransferred(
        bytes32 indexed builderId, address indexed previousOwner, address indexed owner, uint32 version
    );

    /// @notice Only governance may call this.
    error NotGovernance(address caller);
    /// @notice Only the pending governance may accept.
    error NotPendingGovernance(address caller);
    /// @notice Only the builder's owner may call this.
    error NotBuilderOwner(bytes32 builderId, address caller);
    /// @notice Only the builder's pending owner may accept.
    error NotPendingBuilderOwner(bytes32 builderId, address caller);
    /// @notice The code does not match `^[A-Za-z0-9_-]{3,32}$`.
    error InvalidBuilderCode(string code);
    /// @notice The code is taken.
    error BuilderAlreadyRegistered(bytes32 builderId);
    /// @notice No builder is registered under this id.
    error UnknownBuilder(bytes32 builderId);
    /// @notice A fee above its cap (50 bps, or the builder's max fee).
    error FeeAboveCap(uint256 bps, uint256 cap);
    /// @notice The zero address where an account is required.
    error ZeroAddress();
    /// @notice A pair override needs two different tokens.
    error IdenticalTokens(address token);
    /// @notice The executor was already named (`setExecutor` runs once).
    error ExecutorAlreadySet(address executor);
    /// @notice A builder or pair fee recorded before governance named the executor, whose copy would lack it.
    error ExecutorNotSet();
    /// @notice A fee for one more pair than `max` may have a fee of their own.
    error TooManyPairFees(uint256 max);

    /// @notice Registers `code` to `msg.sender`, enabled, with the default max builder fee.
    /// @return builderId `keccak256(bytes(code))`.
    function register(string calldata code, address recipient, uint16 builderFeeBps)
        external
        returns (bytes32 builderId);

    /// @notice The fee policy the executor applies to a swap of `tokenIn` for `tokenOut` attributed to
    ///         `builderId`.
    function feePolicy(address tokenIn, address tokenOut, bytes32 builderId)
        external
        view
        returns (FeePolicy memory);

    /// @notice `feePolicy` as the executor reads it per swap, packed in one word: the service fee in bits
    ///         240..255, the builder's fee cap in bits 224..239, the policy version in bits 160..223 and the
    ///         builder recipient in bits 0..159.
    function feeTerms(address tokenIn, address tokenOut, bytes32 builderId) external view returns (uint256 terms);

    /// @notice `feeTerms` when no service fee can be charged (an aggregator's swap, or a quoted service fee
    ///         of zero): the same word with the service fee bits zero, without reading the pair's fee.
    function builderTerms(bytes32 builderId) external view returns (uint256 terms);

    /// @notice What a swap's settlement record names when no fee can be charged (both quoted caps zero):
    ///         `feePolicy`'s `builderRecipient` and `policyVersion`, without reading the pair's fee.
    function recordPolicy(bytes32 builderId) external view returns (address builderRecipient, uint64 policyVersion);

    /// @notice The service fee for the pair and builder, and the schedule's current version.
    function routeFeeBps(address tokenIn, address tokenOut, bytes32 builderId)
        external
        view
        returns (uint16 bps, uint64 policyVersion);

    /// @notice The builder registered under `builderId`; reverts `UnknownBuilder` otherwise.
    function builderById(bytes32 builderId) external view returns (BuilderProfile memory);

    /// @notice The builder registered under `code`; reverts `UnknownBuilder` otherwise.
    function builderByCode(string calldata code) external view returns (BuilderProfile memory);

    /// @notice Whether governance has commissioned the registry (an uncommissioned one charges no fees).
    function commissioned() external view returns (bool);

    /// @notice The service fee recipient.
    function treasury() external view returns (address);

    /// @notice Version of the standard fee schedule, bumped on every change to it.
    function policyVersion() external view returns (uint64);

    /// @notice The keys (`PairKey.key`) of the pairs with a fee of their own, in no particular order.
    function feePairs() external view returns (bytes32[] memory);
}
