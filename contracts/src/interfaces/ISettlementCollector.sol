// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title ISettlementCollector
/// @notice "The reviewed collector": splits a fee-charging swap's gross output (the service fee and the
///         builder fee stay here, claimable; the rest goes to the recipient), and emits exactly one `Settled`
///         event per fee-charging swap. The service's settlement history is read from these events and the
///         executor's `Attributed` events (an attributed swap that charged no fee) alone.
/// @dev The service fee accrues to the service and is claimable by the registry's current treasury; every
///      other credit belongs to its (recipient, token).
interface ISettlementCollector {
    /// @notice One swap's settlement: every field of the service's history settlement entry, in the order
    ///         of the `Settled` event (its three indexed fields first).
    /// @param grossAmountOut Output before fees.
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

    /// @notice What the executor knows of a fee-charging swap before its output is split: the settlement
    ///         without the four amounts `settle` measures, and the two fees to charge.
    /// @param routeFeeBps The service fee, at most 50 bps of the gross output.
    /// @param builderFeeBps The builder fee, at most 50 bps; non-zero only with a `builderRecipient`.
    struct Order {
        bytes32 builderId;
        bytes32 quoteId;
        address payer;
        bytes32 keyIdHash;
        address recipient;
        address tokenIn;
        uint256 amountIn;
        address tokenOut;
        address builderRecipient;
        uint64 policyVersion;
        uint16 routeFeeBps;
        uint16 builderFeeBps;
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
    /// @notice Native output must arrive as `msg.value`, ERC-20 output with none.
    error InvalidNativeValue(uint256 expected, uint256 actual);
    /// @notice A builder fee without a builder recipient.
    error MissingFeeRecipient();
    /// @notice A fee above 50 bps.
    error FeeTooHigh(uint16 bps);
    /// @notice The recipient is the zero address or the collector itself.
    error InvalidRecipient(address recipient);
    /// @notice A credit beyond what the collector can account for (2^128 - 1 of a token).
    error CreditOverflow(address token);
    /// @notice Nothing is claimable for the caller in this token.
    error NothingToClaim(address recipient, address token);
    /// @notice Sending native ETH failed.
    error NativeTransferFailed(address to, uint256 amount);
    /// @notice The zero address where an account is required.
    error ZeroAddress();

    /// @notice Splits a swap's gross output and records the settlement. The gross output is what arrived
    ///         for it: `msg.value` for native ETH; for an ERC-20, the collector's balance beyond what it owes
    ///         (the route's last pools paid it here). Credits the service fee to the service and the builder
    ///         fee to `o.builderRecipient`, sends the rest to `o.recipient` and emits `Settled`.
    /// @return amountOut What the recipient received (its balance change for an ERC-20).
    function settle(Order calldata o) external payable returns (uint256 amountOut);

    /// @notice Sends the caller's claimable `token` (address(0) for ETH) to `to`.
    /// @return amount What was sent.
    function claim(address token, address to) external returns (uint256 amount);

    /// @notice Fees of `token` that `recipient` can claim: its own credits, and the service's fees when it
    ///         is the registry's current treasury.
    function claimable(address recipient, address token) external view returns (uint256);

    /// @notice Sum of everyone's claimable `token`: the collector always holds at least this much.
    function totalClaimable(address token) external view returns (uint256);

    /// @notice The service's fees of `token` not yet claimed (claimable by the registry's treasury).
    function serviceClaimable(address token) external view returns (uint256);

    /// @notice Whether `executor` may settle.
    function isExecutor(address executor) external view returns (bool);
}
