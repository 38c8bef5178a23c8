// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {SafeTransferLib} from "solady/utils/SafeTransferLib.sol";
import {IPoolManager, IUnlockCallback, PoolKey} from "../interfaces/external/IPoolManager.sol";
import {RouteCodec} from "../libraries/RouteCodec.sol";
import {TransientSlot} from "../libraries/TransientSlot.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title V4Hop
/// @notice Swaps an exact input through a run of consecutive hook-free, static-fee Uniswap V4 hops inside
///         one `unlock`: intermediate deltas net out in the PoolManager, so only the run's input is settled
///         and only its output taken. `unlockCallback` is accepted only from the PoolManager, and only while
///         the executor is waiting for it.
abstract contract V4Hop is ExecutorBase, IUnlockCallback {
    /// @dev TickMath.MIN_SQRT_PRICE + 1 and MAX_SQRT_PRICE - 1: no price limit.
    uint160 private constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 private constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @param payer When not address(0), the swap's caller: the run's input is pulled from it straight into
    ///        the PoolManager, and a token that delivers less is refused.
    /// @param hops Consecutive V4 hops, as encoded in the route (27 bytes each).
    /// @param to Who takes the run's output: the executor, or the recipient on a branch's last run when no
    ///        fee is taken.
    function _swapV4(address currencyIn, uint256 amountIn, address payer, bytes calldata hops, address to)
        internal
        returns (address currencyOut, uint256 amountOut)
    {
        TransientSlot.store(V4_UNLOCK_SLOT, 1);
        bytes memory result = poolManager.unlock(abi.encodePacked(currencyIn, amountIn, payer, to, hops));
        (currencyOut, amountOut) = abi.decode(result, (address, uint256));
    }

    /// @notice Runs the hops packed in `data` as `currencyIn:address amountIn:uint256 payer:address to:address
    ///         hops`.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager) || TransientSlot.load(V4_UNLOCK_SLOT) == 0) {
            revert UnauthorizedCallback(msg.sender);
        }
        TransientSlot.store(V4_UNLOCK_SLOT, 0);
        address currencyIn = RouteCodec.addr(data, 0);
        uint256 amountIn = uint256(bytes32(data[20:52]));
        address payer = RouteCodec.addr(data, 52);
        address to = RouteCodec.addr(data, 72);
        bytes calldata hops = data[92:];

        address currency = currencyIn;
        uint256 amount = amountIn;
        for (uint256 offset; offset < hops.length; offset += RouteCodec.V4_HOP_SIZE) {
            address next = RouteCodec.addr(hops, offset + 1);
            amount = _swapInPool(
                currency, next, RouteCodec.u24(hops, offset + 21), RouteCodec.i24(hops, offset + 24), amount
            );
            currency = next;
        }

        _payRun(currencyIn, amountIn, payer);
        poolManager.take(currency, to, amount);
        return abi.encode(currency, amount);
    }

    /// @dev Settles the run's input with the PoolManager: native ETH held here, an ERC-20 from here, or an
    ///      ERC-20 pulled straight from `payer`, which must arrive whole.
    function _payRun(address currencyIn, uint256 amountIn, address payer) private {
        if (currencyIn == address(0)) {
            poolManager.settle{value: amountIn}();
        } else if (payer == address(0)) {
            poolManager.sync(currencyIn);
            SafeTransferLib.safeTransfer(currencyIn, address(poolManager), amountIn);
            poolManager.settle();
        } else {
            poolManager.sync(currencyIn);
            SafeTransferLib.safeTransferFrom(currencyIn, payer, address(poolManager), amountIn);
            uint256 paid = poolManager.settle();
            if (paid != amountIn) revert UnsupportedInputToken(currencyIn, amountIn, paid);
        }
    }

    /// @dev One exact-input swap in the hook-free pool (currencyIn, currencyOut, fee, tickSpacing).
    function _swapInPool(address currencyIn, address currencyOut, uint24 fee, int24 tickSpacing, uint256 amountIn)
        private
        returns (uint256 amountOut)
    {
        bool zeroForOne = currencyIn < currencyOut;
        // forge-lint: disable-next-line(unsafe-typecast) amounts are uint128 branch amounts or pool outputs
        int256 specified = int256(amountIn);
        PoolKey memory key = zeroForOne
            ? PoolKey(currencyIn, currencyOut, fee, tickSpacing, address(0))
            : PoolKey(currencyOut, currencyIn, fee, tickSpacing, address(0));
        int256 delta = poolManager.swap(
            key,
            IPoolManager.SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: -specified,
                sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT
            }),
            ""
        );
        // BalanceDelta: amount0 in the upper 128 bits, amount1 in the lower 128 bits.
        int256 amount0 = delta >> 128;
        // forge-lint: disable-next-line(unsafe-typecast) truncation is the point: the low 128 bits
        int256 amount1 = int256(int128(delta));
        (int256 paid, int256 received) = zeroForOne ? (-amount0, amount1) : (-amount1, amount0);
        if (paid != specified) revert PartialFill(amountIn, paid);
        // forge-lint: disable-next-line(unsafe-typecast) exact input fully paid into a hook-free pool: received >= 0
        amountOut = uint256(received);
    }
}
