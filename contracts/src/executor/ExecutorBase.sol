// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IExecutor} from "../interfaces/IExecutor.sol";
import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {ISettlementCollector} from "../interfaces/ISettlementCollector.sol";
import {IPoolManager} from "../interfaces/external/IPoolManager.sol";
import {IWETH9} from "../interfaces/external/IWETH9.sol";
import {TransientSlot} from "../libraries/TransientSlot.sol";

/// @title ExecutorBase
/// @notice The executor's fixed environment (immutable addresses of the official Uniswap deployment, the
///         registry and the collector), its transient state, and native ETH wrapping.
abstract contract ExecutorBase is IExecutor {
    /// @notice Canonical wrapped ETH; V2 and V3 hops swap native ETH as WETH9.
    address public immutable weth9;
    /// @notice Uniswap V2 factory and pair init code hash: canonical pairs derive from them.
    address public immutable v2Factory;
    bytes32 public immutable v2PairInitCodeHash;
    /// @notice Uniswap V3 factory and pool init code hash: canonical pools derive from them.
    address public immutable v3Factory;
    bytes32 public immutable v3PoolInitCodeHash;
    /// @notice Uniswap V4 PoolManager: the only caller `unlockCallback` accepts.
    IPoolManager public immutable poolManager;
    /// @notice Fee policy source.
    IBuilderRegistry public immutable registry;
    /// @notice Receives fees and records settlements.
    ISettlementCollector public immutable collector;

    /// @dev Non-zero while a swap runs (reentrancy lock).
    bytes32 internal constant LOCK_SLOT = keccak256("junction.executor.lock");
    /// @dev The V3 pool currently being swapped with: the only address `uniswapV3SwapCallback` accepts.
    bytes32 internal constant V3_POOL_SLOT = keccak256("junction.executor.v3.pool");
    /// @dev The token that V3 pool is owed.
    bytes32 internal constant V3_TOKEN_SLOT = keccak256("junction.executor.v3.token");
    /// @dev Who pays that V3 pool, when not the executor: the swap's caller, on a branch's first hop.
    bytes32 internal constant V3_PAYER_SLOT = keccak256("junction.executor.v3.payer");
    /// @dev Non-zero between our `unlock` call and the PoolManager's callback.
    bytes32 internal constant V4_UNLOCK_SLOT = keccak256("junction.executor.v4.unlock");

    constructor(
        address weth9_,
        address v2Factory_,
        bytes32 v2PairInitCodeHash_,
        address v3Factory_,
        bytes32 v3PoolInitCodeHash_,
        IPoolManager poolManager_,
        IBuilderRegistry registry_,
        ISettlementCollector collector_
    ) {
        weth9 = weth9_;
        v2Factory = v2Factory_;
        v2PairInitCodeHash = v2PairInitCodeHash_;
        v3Factory = v3Factory_;
        v3PoolInitCodeHash = v3PoolInitCodeHash_;
        poolManager = poolManager_;
        registry = registry_;
        collector = collector_;
    }

    /// @notice Accepts ETH only from WETH9 (unwrapping) and the PoolManager (V4 native output), so no ETH
    ///         can be parked here by accident.
    receive() external payable {
        if (msg.sender != weth9 && msg.sender != address(poolManager)) revert UnexpectedNativeSender(msg.sender);
    }

    function _wrap(uint256 amount) internal {
        IWETH9(weth9).deposit{value: amount}();
    }

    function _unwrap(uint256 amount) internal {
        IWETH9(weth9).withdraw(amount);
    }

    /// @dev The ERC-20 a V2/V3 pool holds for `currency`: WETH9 stands in for native ETH.
    function _poolToken(address currency) internal view returns (address) {
        return currency == address(0) ? weth9 : currency;
    }

    function _entered() internal view returns (bool) {
        return TransientSlot.load(LOCK_SLOT) != 0;
    }
}
