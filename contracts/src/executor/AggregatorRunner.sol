// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IExecutor} from "../interfaces/IExecutor.sol";
import {IAllowanceHolder} from "../interfaces/external/IAllowanceHolder.sol";
import {ISettlerRegistry} from "../interfaces/external/ISettlerRegistry.sol";
import {TransientSlot} from "../libraries/TransientSlot.sol";
import {FeeSettlement} from "./FeeSettlement.sol";

/// @title AggregatorRunner
/// @notice Runs a third-party aggregator's transaction as the payer's swap (`swapThroughAggregator`,
///         docs/aggregator-execution.md). The executor calls only the contracts its deployment named: the
///         aggregator's router (entry 1), or the fixed allowance holder (entry 2) asked to call the settler the
///         on-chain registry names active. It lends the aggregator exactly the payer's input: the router an
///         allowance of exactly `amountIn`, cleared after the call; the allowance holder through a lasting
///         allowance that only the holder's own `exec` opens, for the operator, token and amount the executor's
///         call names (its transient allowance, checked in `_checkExec`), so nobody can use it outside that call
///         (0x's AllowanceHolder is the designated allowance target for exactly this). With a builder
///         fee the output comes here, measured by the executor's own balance change, and is settled like one
///         of our routes, without a service fee; without one the aggregator may pay the recipient directly
///         (no custody: one transfer and one balance write less), and the output is what the recipient gained.
abstract contract AggregatorRunner is FeeSettlement {
    /// @dev Native ETH as the allowance holder's `token` (the firm-quote API's native-ETH address).
    address internal constant ETH_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    uint8 internal constant ENTRY_ROUTER = 1;
    uint8 internal constant ENTRY_ALLOWANCE_HOLDER = 2;
    /// @dev `exec`'s calldata up to its `data` offset: selector and four static words, then the offset.
    uint256 internal constant EXEC_HEAD_SIZE = 4 + 5 * 32;

    /// @notice Entry 1's router (zero: disabled).
    address public immutable aggregatorRouter;
    /// @notice Entry 2's allowance holder (zero: disabled).
    address public immutable allowanceHolder;
    /// @notice Entry 2's settler registry (zero: disabled).
    address public immutable settlerRegistry;
    /// @notice The registry feature whose owner is the only settler entry 2 may reach.
    uint256 public immutable settlerFeature;

    constructor(AggregatorTargets memory targets) {
        if (targets.router != address(0) && targets.router == targets.allowanceHolder) {
            revert AggregatorTargetsOverlap(targets.router);
        }
        aggregatorRouter = targets.router;
        allowanceHolder = targets.allowanceHolder;
        settlerRegistry = targets.settlerRegistry;
        settlerFeature = targets.settlerFeature;
    }

    /// @inheritdoc IExecutor
    function swapThroughAggregator(SwapParams calldata p, uint8 entry, bytes calldata data)
        external
        payable
        returns (uint256 amountOut)
    {
        if (_entered()) revert Reentrancy();
        TransientSlot.store(LOCK_SLOT, 1);
        _checkTerms(p);
        address target = _target(p, entry, data);
        // Fee rule 2: an aggregator's quote carries its own fees, so no service fee whatever was quoted.
        (uint256 terms,, uint16 builderBps) = _fees(p, 0, false);
        amountOut = builderBps == 0
            ? _runPayingRecipient(p, target, data)
            : _settle(p, terms, 0, builderBps, _callAggregator(p, target, data));
        uint256 minOut = p.minOut;
        if (amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
        TransientSlot.store(LOCK_SLOT, 0);
    }

    /// @dev The contract `entry` calls, once its calldata is checked against the swap (entry 2).
    function _target(SwapParams calldata p, uint8 entry, bytes calldata data) private view returns (address target) {
        if (entry == ENTRY_ROUTER) {
            target = aggregatorRouter;
        } else if (entry == ENTRY_ALLOWANCE_HOLDER && settlerRegistry != address(0)) {
            target = allowanceHolder;
            if (target != address(0)) _checkExec(p, data);
        }
        if (target == address(0)) revert AggregatorDisabled(entry);
    }

    /// @dev `data` is `exec(operator, token, amount, target, ...)` whose operator and target are the settler
    ///      the registry names now, and whose token and amount are the swap's input. Whole words are compared,
    ///      so an address with dirty upper bits never passes.
    function _checkExec(SwapParams calldata p, bytes calldata data) private view {
        if (data.length < EXEC_HEAD_SIZE) revert AggregatorBindingMismatch();
        (bytes4 selector, uint256 operator, uint256 token, uint256 amount, uint256 settler) = _execHead(data);
        if (selector != IAllowanceHolder.exec.selector) revert AggregatorBindingMismatch();
        uint256 active = _activeSettler();
        // forge-lint: disable-next-line(unsafe-typecast) only for the error: a dirty word is named truncated
        if (active == 0 || operator != active) revert SettlerNotActive(address(uint160(operator)));
        // forge-lint: disable-next-line(unsafe-typecast) only for the error: a dirty word is named truncated
        if (settler != active) revert SettlerNotActive(address(uint160(settler)));
        address tokenIn = p.tokenIn;
        if (token != uint160(tokenIn == address(0) ? ETH_ADDRESS : tokenIn) || amount != p.amountIn) {
            revert AggregatorBindingMismatch();
        }
    }

    /// @dev `exec`'s selector and its first four arguments as whole words (`data` is at least
    ///      `EXEC_HEAD_SIZE` long), read without slicing.
    function _execHead(bytes calldata data)
        private
        pure
        returns (bytes4 selector, uint256 operator, uint256 token, uint256 amount, uint256 settler)
    {
        assembly ("memory-safe") {
            let o := data.offset
            selector := and(calldataload(o), shl(224, 0xffffffff))
            operator := calldataload(add(o, 0x04))
            token := calldataload(add(o, 0x24))
            amount := calldataload(add(o, 0x44))
            settler := calldataload(add(o, 0x64))
        }
    }

    /// @dev The registry's settler for `settlerFeature` as the whole word it returned; zero when it names none
    ///      (it reverts then) or answers with less than a word.
    function _activeSettler() private view returns (uint256 settler) {
        (address target, uint256 feature) = (settlerRegistry, settlerFeature);
        bytes4 selector = ISettlerRegistry.ownerOf.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, selector)
            mstore(add(m, 0x04), feature)
            if and(gt(returndatasize(), 0x1f), staticcall(gas(), target, m, 0x24, 0, 0x20)) { settler := mload(0) }
        }
    }

    /// @dev Lends `target` exactly the payer's input (ERC-20 pulled here, then approved for exactly `amountIn`
    ///      to the router, or covered by the allowance holder's lasting allowance; native ETH as the call's
    ///      value), calls it with `data`, and checks that it consumed the input whole and left the router no
    ///      allowance.
    /// @return gross The output the call paid the executor: its balance change in `p.tokenOut` (zero when the
    ///         aggregator paid the recipient directly).
    function _callAggregator(SwapParams calldata p, address target, bytes calldata data)
        private
        returns (uint256 gross)
    {
        (address tokenIn, address tokenOut, uint256 amountIn) = (p.tokenIn, p.tokenOut, p.amountIn);
        uint256 inputBefore;
        if (tokenIn == address(0)) {
            inputBefore = address(this).balance - amountIn;
        } else {
            inputBefore = _pull(tokenIn, amountIn);
            if (target == allowanceHolder) _allowHolder(tokenIn, target, amountIn);
            else SafeTransferLib.safeApprove(tokenIn, target, amountIn);
        }
        uint256 outputBefore = _held(tokenOut);
        bool nativeOut = tokenOut == address(0);
        if (nativeOut) TransientSlot.store(AGGREGATOR_CALL_SLOT, 1);
        bool ok = _call(target, tokenIn == address(0) ? amountIn : 0, data);
        if (nativeOut) TransientSlot.store(AGGREGATOR_CALL_SLOT, 0);
        if (!ok) revert AggregatorCallFailed();
        uint256 inputAfter = _held(tokenIn);
        if (inputAfter != inputBefore) revert AggregatorLeftInput(inputAfter > inputBefore ? inputAfter - inputBefore : 0);
        if (tokenIn != address(0) && target != allowanceHolder && _allowance(tokenIn, target) != 0) {
            SafeTransferLib.safeApprove(tokenIn, target, 0);
        }
        gross = _held(tokenOut) - outputBefore;
    }

    /// @dev Makes sure the allowance holder may move `amount` of `token` from here, approving it the maximum
    ///      once (reset to zero first for tokens that insist). Kept after the swap: the holder moves tokens
    ///      only for the operator an owner's own `exec` names, up to that call's amount, within it, so the
    ///      allowance is usable only inside this executor's `exec` (entry 2), for `p.tokenIn` and `p.amountIn`.
    ///      An allowance written from zero and cleared on every swap cost 20k of gas a swap that the refund
    ///      cap mostly kept; this costs one read.
    function _allowHolder(address token, address holder, uint256 amount) private {
        if (_allowance(token, holder) < amount) SafeTransferLib.safeApproveWithRetry(token, holder, type(uint256).max);
    }

    /// @dev Pulls exactly `amount` of `token` from the caller, refusing a token that delivers less.
    /// @return before The executor's balance before the pull.
    function _pull(address token, uint256 amount) private returns (uint256 before) {
        before = SafeTransferLib.balanceOf(token, address(this));
        SafeTransferLib.safeTransferFrom(token, msg.sender, address(this), amount);
        uint256 received = SafeTransferLib.balanceOf(token, address(this)) - before;
        if (received != amount) revert UnsupportedInputToken(token, amount, received);
    }

    /// @dev No builder fee, so nothing needs the output in custody: the aggregator may pay the recipient
    ///      directly (its transaction built for the swap's recipient), and whatever it paid the executor
    ///      instead is sent on, so nothing of the payer's stays here. The output is what the recipient's
    ///      balance gained over the call; an attributed swap emits `Attributed` with it.
    function _runPayingRecipient(SwapParams calldata p, address target, bytes calldata data)
        private
        returns (uint256 amountOut)
    {
        (address tokenOut, address recipient) = (p.tokenOut, p.recipient);
        uint256 before = _balanceOf(tokenOut, recipient);
        uint256 here = _callAggregator(p, target, data);
        if (here != 0) _transferOut(tokenOut, recipient, here);
        uint256 afterwards = _balanceOf(tokenOut, recipient);
        amountOut = afterwards > before ? afterwards - before : 0;
        if (p.builderId != bytes32(0)) _emitAttributed(p, amountOut);
    }

    /// @dev `target.call{value}(data)`, its return data never copied (a third party's bytes never pass on).
    function _call(address target, uint256 value, bytes calldata data) private returns (bool ok) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, data.offset, data.length)
            ok := call(gas(), target, value, m, data.length, 0, 0)
        }
    }

    /// @dev `token.allowance(this, spender)`; a token that does not answer counts as allowing something, so
    ///      the allowance is reset all the same.
    function _allowance(address token, address spender) private view returns (uint256 amount) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, 0xdd62ed3e00000000000000000000000000000000000000000000000000000000) // allowance(address,address)
            mstore(add(m, 0x04), address())
            mstore(add(m, 0x24), spender)
            amount := 1
            if and(gt(returndatasize(), 0x1f), staticcall(gas(), token, m, 0x44, 0, 0x20)) { amount := mload(0) }
        }
    }
}
