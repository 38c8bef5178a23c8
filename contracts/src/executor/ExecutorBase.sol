// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IExecutor} from "../interfaces/IExecutor.sol";
import {IBuilderRegistry} from "../interfaces/IBuilderRegistry.sol";
import {IPoolManager} from "../interfaces/external/IPoolManager.sol";
import {IWETH9} from "../interfaces/external/IWETH9.sol";
import {TransientSlot} from "../libraries/TransientSlot.sol";

/// @title ExecutorBase
/// @notice The executor's fixed environment (immutable addresses of the official Uniswap deployment, the
///         and the registry), its transient state, and native ETH wrapping.
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
    /// @notice Fee policy source: the only writer of the executor's copy of it (`PolicyMirror`), and the
    ///         treasury's.
    IBuilderRegistry public immutable registry;

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
    /// @dev Non-zero while an aggregator's call that pays native ETH out runs: `receive` then accepts ETH from
    ///      anyone (the aggregator's output, measured as the balance change).
    bytes32 internal constant AGGREGATOR_CALL_SLOT = keccak256("junction.executor.aggregator.call");

    constructor(
        address weth9_,
        address v2Factory_,
        bytes32 v2PairInitCodeHash_,
        address v3Factory_,
        bytes32 v3PoolInitCodeHash_,
        IPoolManager poolManager_,
        IBuilderRegistry registry_
    ) {
        weth9 = weth9_;
        v2Factory = v2Factory_;
        v2PairInitCodeHash = v2PairInitCodeHash_;
        v3Factory = v3Factory_;
        v3PoolInitCodeHash = v3PoolInitCodeHash_;
        poolManager = poolManager_;
        registry = registry_;
    }

    /// @notice Accepts ETH only from WETH9 (unwrapping), the PoolManager (V4 native output) and, while an
    ///         aggregator's call with native output runs, anyone: so no ETH can be parked here by accident.
    receive() external payable {
        if (
            msg.sender != weth9 && msg.sender != address(poolManager) && TransientSlot.load(AGGREGATOR_CALL_SLOT) == 0
        ) revert UnexpectedNativeSender(msg.sender);
    }

    /// @dev The checks every swap makes before anything moves: deadline, recipient, tokens, amount, value. The
    ///      fields are read as words; an address field with dirty upper bits reverts without data, as the ABI
    ///      decoder would (later readers of these fields rely on it).
    function _checkTerms(SwapParams calldata p) internal view {
        (uint256 deadline, address recipient, address tokenIn, address tokenOut, uint256 amountIn, uint256 dirty) =
            _terms(p);
        if (dirty != 0) revert();
        // forge-lint: disable-next-line(block-timestamp) the deadline is a timestamp by definition
        if (block.timestamp > deadline) revert DeadlineExpired(deadline, block.timestamp);
        if (recipient == address(0) || recipient == address(this)) revert InvalidRecipient(recipient);
        if (tokenIn == tokenOut) revert IdenticalTokens(tokenIn);
        if (amountIn == 0) revert ZeroAmountIn();
        uint256 expectedValue = tokenIn == address(0) ? amountIn : 0;
        if (msg.value != expectedValue) revert InvalidNativeValue(expectedValue, msg.value);
    }

    /// @dev The fields `_checkTerms` checks, and the upper bits of its three addresses (non-zero: dirty).
    function _terms(SwapParams calldata p)
        private
        pure
        returns (
            uint256 deadline,
            address recipient,
            address tokenIn,
            address tokenOut,
            uint256 amountIn,
            uint256 dirty
        )
    {
        assembly ("memory-safe") {
            tokenIn := calldataload(p)
            tokenOut := calldataload(add(p, 0x20))
            amountIn := calldataload(add(p, 0x40))
            recipient := calldataload(add(p, 0x80))
            deadline := calldataload(add(p, 0xa0))
            dirty := shr(160, or(or(tokenIn, tokenOut), recipient))
        }
    }

    /// @dev Sends `amount` of native ETH to `to` (the recipient), without copying what it returns.
    function _sendNative(address to, uint256 amount) internal {
        bool ok;
        assembly ("memory-safe") {
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
        if (!ok) revert NativeTransferFailed(to, amount);
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

    /// @dev The executor's own balance of `token` (address(0): ETH).
    function _held(address token) internal view returns (uint256) {
        return token == address(0) ? address(this).balance : SafeTransferLib.balanceOf(token, address(this));
    }

    function _entered() internal view returns (bool) {
        return TransientSlot.load(LOCK_SLOT) != 0;
    }
}
