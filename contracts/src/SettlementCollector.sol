// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IBuilderRegistry} from "./interfaces/IBuilderRegistry.sol";
import {ISettlementCollector} from "./interfaces/ISettlementCollector.sol";
import {FeeMath} from "./libraries/FeeMath.sol";

/// @title SettlementCollector
/// @notice "The reviewed collector": splits each fee-charging swap's gross output, keeps the service fee and
///         the builder fee claimable, pays the recipient the rest, and emits one `Settled` event per
///         fee-charging swap. See `ISettlementCollector`.
/// @dev Experimental and unaudited. Amounts are measured, never trusted: a swap's gross output is what
///      arrived beyond what the collector already owes, so the collector always holds at least
///      `totalClaimable` of every token and a settlement can never spend what is owed to anyone.
///      Per token, what is owed in all and the service's share of it share one slot (`Owed`): a fee costs
///      one write for the service fee and the total, and one for the builder's credit.
contract SettlementCollector is ISettlementCollector {
    /// @dev Per token: everyone's credits (`total`) and, within them, the service's fees (`service`).
    struct Owed {
        uint128 total;
        uint128 service;
    }

    /// @notice Whose treasury claims the service's fees (the registry names it; governance may change it).
    IBuilderRegistry public immutable registry;
    /// @notice Authorises executors (governance).
    address public owner;
    /// @notice The account that may accept ownership.
    address public pendingOwner;

    /// @inheritdoc ISettlementCollector
    mapping(address executor => bool) public isExecutor;
    mapping(address token => Owed) private _owed;
    mapping(address recipient => mapping(address token => uint256)) private _claimable;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    modifier onlyExecutor() {
        if (!isExecutor[msg.sender]) revert NotExecutor(msg.sender);
        _;
    }

    constructor(address owner_, IBuilderRegistry registry_) {
        if (owner_ == address(0) || address(registry_) == address(0)) revert ZeroAddress();
        owner = owner_;
        registry = registry_;
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
    function settle(Order calldata o) external payable onlyExecutor returns (uint256 amountOut) {
        address token = o.tokenOut;
        address recipient = o.recipient;
        if (recipient == address(this) || recipient == address(0)) revert InvalidRecipient(recipient);
        (uint16 routeBps, uint16 builderBps) = (o.routeFeeBps, o.builderFeeBps);
        if (routeBps > FeeMath.MAX_FEE_BPS) revert FeeTooHigh(routeBps);
        if (builderBps > FeeMath.MAX_FEE_BPS) revert FeeTooHigh(builderBps);
        Owed memory owed = _owed[token];
        uint256 gross;
        if (token == address(0)) {
            gross = msg.value;
        } else {
            if (msg.value != 0) revert InvalidNativeValue(0, msg.value);
            uint256 balance = SafeTransferLib.balanceOf(token, address(this));
            gross = balance > owed.total ? balance - owed.total : 0;
        }
        uint256 routeFee = FeeMath.fee(gross, routeBps);
        uint256 builderFee = FeeMath.fee(gross, builderBps);
        if (routeFee != 0 || builderFee != 0) _credit(token, owed, routeFee, builderFee, o.builderRecipient);
        amountOut = _pay(token, recipient, gross - routeFee - builderFee);
        _emitSettled(o, gross, routeFee, builderFee, amountOut);
    }

    /// @inheritdoc ISettlementCollector
    function claim(address token, address to) external returns (uint256 amount) {
        if (to == address(0)) revert ZeroAddress();
        amount = _claimable[msg.sender][token];
        Owed memory owed = _owed[token];
        if (owed.service != 0 && msg.sender == registry.treasury()) {
            amount += owed.service;
            owed.service = 0;
        }
        if (amount == 0) revert NothingToClaim(msg.sender, token);
        _claimable[msg.sender][token] = 0;
        // casting to 'uint128' is safe because every credit is within `total` (see `_credit`)
        // forge-lint: disable-next-line(unsafe-typecast)
        owed.total -= uint128(amount);
        _owed[token] = owed;
        emit Claimed(msg.sender, token, to, amount);
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to, amount);
        } else {
            SafeTransferLib.safeTransfer(token, to, amount);
        }
    }

    /// @inheritdoc ISettlementCollector
    function claimable(address recipient, address token) external view returns (uint256 amount) {
        amount = _claimable[recipient][token];
        if (recipient == registry.treasury()) amount += _owed[token].service;
    }

    /// @inheritdoc ISettlementCollector
    function totalClaimable(address token) external view returns (uint256) {
        return _owed[token].total;
    }

    /// @inheritdoc ISettlementCollector
    function serviceClaimable(address token) external view returns (uint256) {
        return _owed[token].service;
    }

    /// @dev Credits both fees: the service's with the total in one write, the builder's in its own.
    function _credit(address token, Owed memory owed, uint256 routeFee, uint256 builderFee, address builderRecipient)
        private
    {
        uint256 total = owed.total + routeFee + builderFee;
        uint256 service = owed.service + routeFee;
        if (total > type(uint128).max) revert CreditOverflow(token);
        // casting to 'uint128' is safe because both are at most `total`, checked just above
        // forge-lint: disable-next-line(unsafe-typecast)
        _owed[token] = Owed(uint128(total), uint128(service));
        if (builderFee != 0) {
            if (builderRecipient == address(0)) revert MissingFeeRecipient();
            _claimable[builderRecipient][token] += builderFee;
        }
    }

    /// @dev Sends `amount` and returns what `to` received: its balance change for an ERC-20 (a
    ///      fee-on-transfer token delivers less), the amount sent for ETH.
    function _pay(address token, address to, uint256 amount) private returns (uint256 received) {
        if (amount == 0) return 0;
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            if (!ok) revert NativeTransferFailed(to, amount);
            return amount;
        }
        uint256 before = SafeTransferLib.balanceOf(token, to);
        SafeTransferLib.safeTransfer(token, to, amount);
        received = SafeTransferLib.balanceOf(token, to) - before;
    }

    /// @dev `Settled` from the order's calldata and the four measured amounts, without re-encoding the
    ///      order's words (fourteen event arguments are too many for the legacy code generator's stack).
    function _emitSettled(Order calldata o, uint256 gross, uint256 routeFee, uint256 builderFee, uint256 amountOut)
        private
    {
        bytes32 topic0 = Settled.selector;
        assembly ("memory-safe") {
            let data := mload(0x40)
            calldatacopy(data, add(o, 0x60), 0xa0) // keyIdHash, recipient, tokenIn, amountIn, tokenOut
            mstore(add(data, 0xa0), gross)
            mstore(add(data, 0xc0), routeFee)
            mstore(add(data, 0xe0), builderFee)
            mstore(add(data, 0x100), amountOut)
            calldatacopy(add(data, 0x120), add(o, 0x100), 0x40) // builderRecipient, policyVersion
            log4(data, 0x160, topic0, calldataload(o), calldataload(add(o, 0x20)), calldataload(add(o, 0x40)))
        }
    }
}
