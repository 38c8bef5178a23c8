// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title ISettlementCollector
/// @notice "The reviewed collector", a role the executor plays itself: it takes custody of a fee-charging
///         swap's gross output, keeps the service fee and the builder fee as credits, pays the recipient the
///         rest, and emits exactly one `Settled` event per fee-charging swap (an attributed swap that charges
///         nothing emits the executor's `Attributed` instead). The service's settlement history is read from
///         these events alone.
/// @dev Credits are kept per (account, token) in one packed slot: the builder fee credited to the account
///      (a builder's payout wallet at the swap) and the service fee accrued on swaps that named it (the zero
///      account: no payable builder). A claim empties a credit but leaves the slot marked, so the next fee
///      writes a non-zero slot. The service's fees are claimable by the registry's current treasury, from
///      whichever accounts it names.
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

    /// @notice One per fee-charging swap. `builderId` is indexed so history can filter by builder. The
    ///         builder fee is credited to `builderRecipient`, the service fee to the service under the same
    ///         account.
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
    /// @notice `recipient` claimed its builder fees: `amount` of `token`, sent to `to`.
    event Claimed(address indexed recipient, address indexed token, address to, uint256 amount);
    /// @notice The treasury claimed the service's fees: `amount` of `token`, sent to `to`.
    event ServiceClaimed(address indexed treasury, address indexed token, address to, uint256 amount);

    /// @notice Only the registry's current treasury may claim the service's fees.
    error NotTreasury(address caller);
    /// @notice A builder fee without a builder recipient.
    error MissingFeeRecipient();
    /// @notice A credit beyond what one slot can account for (2^127 - 1 of a token).
    error CreditOverflow(address token);
    /// @notice Nothing is claimable for the caller in this token.
    error NothingToClaim(address recipient, address token);
    /// @notice The zero address where an account is required.
    error ZeroAddress();

    /// @notice Sends the caller's builder fees in `token` (address(0) for ETH) to `to`.
    /// @return amount What was sent: exactly what was credited since the last claim.
    function claim(address token, address to) external returns (uint256 amount);

    /// @notice Sends the service's fees in `token` accrued under each of `accounts` to `to`; only the
    ///         registry's current treasury may call it.
    /// @return amount What was sent.
    function claimService(address token, address[] calldata accounts, address to) external returns (uint256 amount);

    /// @notice Builder fees of `token` that `recipient` can claim.
    function claimable(address recipient, address token) external view returns (uint256);

    /// @notice The service's fees of `token` accrued under `account` (claimable by the registry's treasury).
    function serviceClaimable(address account, address token) external view returns (uint256);
}
