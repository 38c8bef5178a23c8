// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {ISettlementCollector} from "./interfaces/ISettlementCollector.sol";

/// @title SettlementCollector
/// @notice "The reviewed collector": holds the service and builder fees claimable per (recipient, token)
///         and emits one `Settled` event per swap. See `ISettlementCollector`.
/// @dev Experimental and unaudited. Credits are measured, never trusted: a settlement credits at most the
///      fee tokens that actually arrived since the last one, so the collector always holds at least
///      `totalClaimable` of every token.
contract SettlementCollector is ISettlementCollector {
    /// @notice Authorises executors (governance).
    address public owner;
    /// @notice The account that may accept ownership.
    address public pendingOwner;

    /// @inheritdoc ISettlementCollector
    mapping(address executor => bool) public isExecutor;
    /// @inheritdoc ISettlementCollector
    mapping(address token => uint256) public totalClaimable;
    mapping(address recipient => mapping(address token => uint256)) private _claimable;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    /// @notice Authorises (or revokes) an executor.
    function setExecutor(address executor, bool authorised) external onlyOwner {
        isExecutor[executor] = authorised;
        emit ExecutorSet(executor, authorised);
    }

    /// @notice Starts handing ownership to `pending` (zero cancels).
    function transferOwnership(address pending) external onlyOwner {
        pendingOwner = pending;
        emit OwnershipTransferStarted(msg.sender, pending);
    }

    /// @notice Completes an ownership handover.
    function acceptOwnership() external {
        if (msg.sender != pendingOwner) revert NotPendingOwner(msg.sender);
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }

    /// @inheritdoc ISettlementCollector
    function settle(Settlement calldata s, address treasury) external payable {
        if (!isExecutor[msg.sender]) revert NotExecutor(msg.sender);
        uint256 fees = s.routeFee + s.builderFee;
        if (fees != 0) {
            if (treasury == address(0) || (s.builderFee != 0 && s.builderRecipient == address(0))) {
                revert MissingFeeRecipient();
            }
            _credit(s.tokenOut, fees, s.routeFee, s.builderFee, treasury, s.builderRecipient);
        } else if (msg.value != 0) {
            revert InvalidNativeValue(0, msg.value);
        }
        _emitSettled(s);
    }

    /// @inheritdoc ISettlementCollector
    function claim(address token, address to) external returns (uint256 amount) {
        if (to == address(0)) revert ZeroAddress();
        amount = _claimable[msg.sender][token];
        if (amount == 0) revert NothingToClaim(msg.sender, token);
        _claimable[msg.sender][token] = 0;
        totalClaimable[token] -= amount;
        emit Claimed(msg.sender, token, to, amount);
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to, amount);
        } else {
            SafeTransferLib.safeTransfer(token, to, amount);
        }
    }

    /// @inheritdoc ISettlementCollector
    function claimable(address recipient, address token) external view returns (uint256) {
        return _claimable[recipient][token];
    }

    /// @dev Emits `Settled` straight from the calldata of `settle`: `s` is a static struct whose fourteen
    ///      words sit in event order right after the selector, the first three being the indexed topics and
    ///      the other eleven the data. (Fourteen event arguments are too many for the legacy code
    ///      generator's stack, and re-encoding them would only copy them again.)
    function _emitSettled(Settlement calldata s) private {
        bytes32 topic0 = Settled.selector;
        assembly ("memory-safe") {
            let data := mload(0x40)
            calldatacopy(data, add(s, 0x60), 0x160)
            log4(data, 0x160, topic0, calldataload(s), calldataload(add(s, 0x20)), calldataload(add(s, 0x40)))
        }
    }

    /// @dev Credits what arrived: exactly `fees` for ETH (checked against `msg.value`), and for an ERC-20 the
    ///      balance not yet owed to anyone, capped at `fees` and split pro rata if short.
    function _credit(
        address token,
        uint256 fees,
        uint256 routeFee,
        uint256 builderFee,
        address treasury,
        address builderRecipient
    ) private {
        uint256 received;
        if (token == address(0)) {
            if (msg.value != fees) revert InvalidNativeValue(fees, msg.value);
            received = fees;
        } else {
            if (msg.value != 0) revert InvalidNativeValue(0, msg.value);
            uint256 balance = SafeTransferLib.balanceOf(token, address(this));
            uint256 owed = totalClaimable[token];
            received = balance > owed ? balance - owed : 0;
            if (received < fees) {
                emit FeeShortfall(token, fees, received);
                builderFee = (received * builderFee) / fees;
                routeFee = received - builderFee;
            }
        }
        totalClaimable[token] += routeFee + builderFee;
        if (routeFee != 0) _claimable[treasury][token] += routeFee;
        if (builderFee != 0) _claimable[builderRecipient][token] += builderFee;
    }
}
