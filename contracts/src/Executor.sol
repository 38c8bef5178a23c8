// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IBuilderRegistry} from "./interfaces/IBuilderRegistry.sol";
import {IExecutor} from "./interfaces/IExecutor.sol";
import {IPoolManager} from "./interfaces/external/IPoolManager.sol";
import {RouteCodec} from "./libraries/RouteCodec.sol";
import {TransientSlot} from "./libraries/TransientSlot.sol";
import {AggregatorRunner} from "./executor/AggregatorRunner.sol";
import {ExecutorBase} from "./executor/ExecutorBase.sol";
import {FeeSettlement} from "./executor/FeeSettlement.sol";
import {RouteRunner} from "./executor/RouteRunner.sol";

/// @title Executor
/// @notice Junction's swap executor (`tx.to` of every swap the service prepares, and the spender to approve
///         for ERC-20 input). See `IExecutor`, `contracts/ROUTE_ENCODING.md` (our routes) and
///         `docs/aggregator-execution.md` (a third-party aggregator's transaction).
/// @dev Experimental and unaudited. Between transactions it holds only the fees it owes (credits, claimable
///      as `ISettlementCollector` says) and dust it owns: every swap consumes exactly its input, and pays out
///      exactly its gross output to the recipient and the credits.
contract Executor is RouteRunner, FeeSettlement, AggregatorRunner {
    constructor(
        address weth9_,
        address v2Factory_,
        bytes32 v2PairInitCodeHash_,
        address v3Factory_,
        bytes32 v3PoolInitCodeHash_,
        IPoolManager poolManager_,
        IBuilderRegistry registry_,
        AggregatorTargets memory aggregators_
    )
        ExecutorBase(
            weth9_,
            v2Factory_,
            v2PairInitCodeHash_,
            v3Factory_,
            v3PoolInitCodeHash_,
            poolManager_,
            registry_
        )
        AggregatorRunner(aggregators_)
    {}

    /// @dev `SwapParams.maxRouteFeeBps`: the quoted fee in bits 0..14; bit 15 says the pair has a fee of its own.
    uint16 private constant ROUTE_FEE_MASK = 0x7fff;

    /// @inheritdoc IExecutor
    function swap(SwapParams calldata p, bytes calldata route) external payable returns (uint256 amountOut) {
        if (_entered()) revert Reentrancy();
        TransientSlot.store(LOCK_SLOT, 1);
        _checkTerms(p);
        address tokenOut = p.tokenOut;
        RouteCodec.validate(route, p.amountIn, tokenOut);
        uint16 maxRouteBps = p.maxRouteFeeBps;
        (uint256 terms, uint16 routeBps, uint16 builderBps) =
            _fees(p, maxRouteBps & ROUTE_FEE_MASK, maxRouteBps > ROUTE_FEE_MASK);
        if (routeBps == 0 && builderBps == 0) {
            amountOut = _swapToRecipient(p, route);
            if (p.builderId != bytes32(0)) _emitAttributed(p, amountOut);
        } else {
            // Each branch's last pool pays the executor, which splits what arrived.
            uint256 before = _held(tokenOut);
            _runRoute(p.tokenIn, _payer(p), route, address(this));
            amountOut = _settle(p, terms, routeBps, builderBps, _held(tokenOut) - before);
        }
        uint256 minOut = p.minOut;
        if (amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
        TransientSlot.store(LOCK_SLOT, 0);
    }

    /// @dev No fee to take: each branch's last pool pays the recipient (native ETH arrives here first and is
    ///      sent on), and what the recipient received is the output, gross and net alike.
    function _swapToRecipient(SwapParams calldata p, bytes calldata route) private returns (uint256 amountOut) {
        (address tokenOut, address recipient) = (p.tokenOut, p.recipient);
        if (tokenOut == address(0)) {
            uint256 before = address(this).balance;
            _runRoute(p.tokenIn, _payer(p), route, address(this));
            amountOut = address(this).balance - before;
            _sendNative(recipient, amountOut);
        } else {
            uint256 before = SafeTransferLib.balanceOf(tokenOut, recipient);
            _runRoute(p.tokenIn, _payer(p), route, recipient);
            amountOut = SafeTransferLib.balanceOf(tokenOut, recipient) - before;
        }
    }

    /// @dev Who holds the ERC-20 input: the caller. ERC-20 input is never parked here: each branch's first
    ///      hop pulls its share straight from the caller into the pool (V2 pair, V3 callback, V4 settle) and
    ///      refuses a token that delivers less. Native input is already here as `msg.value`.
    function _payer(SwapParams calldata p) private view returns (address) {
        return p.tokenIn == address(0) ? address(0) : msg.sender;
    }
}
