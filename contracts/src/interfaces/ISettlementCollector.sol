// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title ISettlementCollector
/// @notice "The reviewed collector": receives the service and builder fees from authorised executors, keeps
///         them claimable per (recipient, token), and emits exactly one `Settled` event per recorded swap
///         (every swap attributed to a builder or charging a fee). The service's settlement history is read
///         from these events alone.
interface ISettlementCollector {
    /// @notice One swap's settlement: every field of the service's history settlement entry, in the order
    ///         of the `Settled` event (its three indexed fields first).
    /// @param grossAmountOut Output before fees (balance change of the executor).
    /// @param routeFee Service fee taken from the gross output.
    /// @param builderFee Builder fee taken from the gross output.
    /// @param amountOut What the recipient received.
    /// @param builderRecipient The builder's payout wallet; zero when the builder was not payable.
    struct Settlement {
        bytes32 builderId;
        bytes32 quoteId;
        address payer;
        bytes32 keyIdHash;
        address recipient;
        address tokenIn;
        uint256 amountIn;
        address tokenOut;
        uint256 grossAmountOut;
        uint256 routeFee;
        uint256 builderFee;
        uint256 amountOut;
        address builderRecipient;
        uint64 policyVersion;
    }

    /// @notice One per swap. `builderId` is indexed so history can filter by builder.
    event Settled(
        bytes32 indexed builderId,
        bytes32 indexed quoteId,
        address indexed payer,
        bytes32 keyIdHash,
        address recipient,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 grossAmountOut,
        uint256 routeFee,
        uint256 builderFee,
        uint256 amountOut,
        address builderRecipient,
        uint64 policyVersion
    );
    /// @notice Fewer fee tokens arrived than the settlement states (a fee-on-transfer output token); the
    ///         credit was scaled down to what arrived.
    event FeeShortfall(address indexed token, uint256 expected, uint256 received);
    /// @notice `recipient` claimed `amount` of `token`, sent to `to`.
    event Claimed(address indexed recipient, address indexed token, address to, uint256 amount);
    /// @notice The owner authorised (or revoked) an executor.
    event ExecutorSet(address indexed executor, bool authorised);
    /// @notice Ownership handover started; `pending` must call `acceptOwnership`.
    event OwnershipTransferStarted(address indexed owner, address indexed pending);
    /// @notice Ownership changed hands.
    event OwnershipTransferred(address indexed previous, address indexed owner);

    /// @notice Only an authorised executor may settle.
    error NotExecutor(address caller);
    /// @notice Only the owner may call this.
    error NotOwner(address caller);
    /// @notice Only the pending owner may accept.
    error NotPendingOwner(address caller);
    /// @notice Native fees must arrive as exactly `routeFee + builderFee` of `msg.value`; ERC-20 fees with none.
    error InvalidNativeValue(uint256 expected, uint256 actual);
    /// @notice A builder fee without a builder recipient, or a zero treasury.
    error MissingFeeRecipient();
    /// @notice Nothing is claimable for the caller in this token.
    error NothingToClaim(address recipient, address token);
    /// @notice Sending native ETH failed.
    error NativeTransferFailed(address to, uint256 amount);
    /// @notice The zero address where an account is required.
    error ZeroAddress();

    /// @notice Records a swap's settlement. The executor has already transferred the ERC-20 fees here, or
    ///         sends native fees as `msg.value`. Credits `routeFee` to `treasury` and `builderFee` to the
    ///         builder recipient, scaled down pro rata if fewer tokens arrived.
    function settle(Settlement calldata s, address treasury) external payable;

    /// @notice Sends the caller's claimable `token` (address(0) for ETH) to `to`.
    /// @return amount What was sent.
    function claim(address token, address to) external returns (uint256 amount);

    /// @notice Fees of `token` that `recipient` can claim.
    function claimable(address recipient, address token) external view returns (uint256);

    /// @notice Sum of everyone's claimable `token`: the collector always holds at least this much.
    function totalClaimable(address token) external view returns (uint256);

    /// @notice Whether `executor` may settle.
    function isExecutor(address executor) external view returns (bool);
}
