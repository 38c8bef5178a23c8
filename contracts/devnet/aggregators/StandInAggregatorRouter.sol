// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IStandInV2Router, IStandInV3Router, StandInSwaps} from "./StandInSwaps.sol";

/// @title StandInAggregatorRouter
/// @notice Devnet only: the router of the aggregator-a stand-in (a route-then-build aggregator). The caller
///         approves this router, which pulls the input, swaps it along the built route through the canonical
///         Uniswap pools, keeps the aggregator's fee (`feeBps` of the output) and sends the rest to
///         `recipient`, reverting below `minOut` or after `deadline`.
contract StandInAggregatorRouter is StandInSwaps {
    using SafeERC20 for IERC20;

    address public immutable feeRecipient;
    uint16 public immutable feeBps;

    error Expired(uint256 deadline);
    error WrongValue(uint256 expected, uint256 sent);
    error InsufficientOutput(uint256 amountOut, uint256 minOut);

    event Swapped(address indexed sender, address tokenIn, address tokenOut, uint256 amountIn, uint256 amountOut);

    constructor(
        IStandInV2Router v2Router_,
        IStandInV3Router v3Router_,
        address weth_,
        address feeRecipient_,
        uint16 feeBps_
    ) StandInSwaps(v2Router_, v3Router_, weth_) {
        feeRecipient = feeRecipient_;
        feeBps = feeBps_;
    }

    /// @notice Swaps exactly `amountIn` of `tokenIn` (address(0): ETH, sent as value) into `tokenOut`
    ///         (address(0): ETH) for `recipient`; returns what the recipient is sent.
    function swap(
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        Hop[] calldata hops,
        uint256 minOut,
        address recipient,
        uint256 deadline
    ) external payable returns (uint256 amountOut) {
        if (block.timestamp > deadline) revert Expired(deadline);
        if (msg.value != (tokenIn == address(0) ? amountIn : 0)) {
            revert WrongValue(tokenIn == address(0) ? amountIn : 0, msg.value);
        }
        uint256 received = amountIn;
        if (tokenIn != address(0)) {
            uint256 before = IERC20(tokenIn).balanceOf(address(this));
            IERC20(tokenIn).safeTransferFrom(msg.sender, address(this), amountIn);
            received = IERC20(tokenIn).balanceOf(address(this)) - before;
        }
        uint256 gross = _swapHops(tokenIn, received, hops, tokenOut, deadline);
        uint256 fee = gross * feeBps / 10_000;
        amountOut = gross - fee;
        if (amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
        _send(tokenOut, feeRecipient, fee);
        _send(tokenOut, recipient, amountOut);
        emit Swapped(msg.sender, tokenIn, tokenOut, amountIn, amountOut);
    }
}
