// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IStandInV2Router, IStandInV3Router, StandInSwaps} from "./StandInSwaps.sol";
import {StandInAllowanceHolder} from "./StandInAllowanceHolder.sol";

/// @title StandInSettler
/// @notice Devnet only: the settler of the aggregator-b stand-in (after 0x's Settler, reached through the
///         allowance holder). It pulls the taker's input through the allowance holder, swaps it through the
///         canonical Uniswap pools, keeps the aggregator's fee (`feeBps` of the output) and sends at least
///         `slippage.minAmountOut` of `slippage.buyToken` to `slippage.recipient`, before `deadline`.
contract StandInSettler is StandInSwaps {
    /// @notice Native ETH as a buy token, as the firm-quote API writes it.
    address public constant ETH_ADDRESS = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    struct AllowedSlippage {
        address recipient;
        address buyToken;
        uint256 minAmountOut;
    }

    StandInAllowanceHolder public immutable allowanceHolder;
    address public immutable feeRecipient;
    uint16 public immutable feeBps;

    error NotThroughAllowanceHolder();
    error Expired(uint256 deadline);
    error TooMuchSlippage(address buyToken, uint256 minAmountOut, uint256 amountOut);

    constructor(
        IStandInV2Router v2Router_,
        IStandInV3Router v3Router_,
        address weth_,
        StandInAllowanceHolder allowanceHolder_,
        address feeRecipient_,
        uint16 feeBps_
    ) StandInSwaps(v2Router_, v3Router_, weth_) {
        allowanceHolder = allowanceHolder_;
        feeRecipient = feeRecipient_;
        feeBps = feeBps_;
    }

    /// @notice Settles one sale (0x Settler's `execute` signature): `actions[0]` is
    ///         `abi.encode(address sellToken, uint256 sellAmount, Hop[] hops, uint256 deadline)`, selling
    ///         `sellAmount` of `sellToken` (ETH_ADDRESS: ETH sent as value) along `hops`. Called by the allowance
    ///         holder, which appends the taker's address to the calldata.
    function execute(AllowedSlippage calldata slippage, bytes[] calldata actions, bytes32 /* zid */ )
        external
        payable
        returns (bool)
    {
        if (msg.sender != address(allowanceHolder)) revert NotThroughAllowanceHolder();
        address taker = address(bytes20(msg.data[msg.data.length - 20:]));
        address out = slippage.buyToken == ETH_ADDRESS ? address(0) : slippage.buyToken;
        uint256 gross = _sell(actions[0], out, taker);
        uint256 fee = gross * feeBps / 10_000;
        uint256 amountOut = gross - fee;
        if (amountOut < slippage.minAmountOut) {
            revert TooMuchSlippage(slippage.buyToken, slippage.minAmountOut, amountOut);
        }
        _send(out, feeRecipient, fee);
        _send(out, slippage.recipient, amountOut);
        return true;
    }

    /// @dev Pulls the taker's input (ETH arrives as value) and swaps it along the action's hops.
    function _sell(bytes calldata action, address out, address taker) private returns (uint256) {
        (address sellToken, uint256 sellAmount, Hop[] memory hops, uint256 deadline) =
            abi.decode(action, (address, uint256, Hop[], uint256));
        if (block.timestamp > deadline) revert Expired(deadline);
        if (sellToken == ETH_ADDRESS) return _swapHops(address(0), msg.value, hops, out, deadline);
        allowanceHolder.transferFrom(sellToken, taker, address(this), sellAmount);
        return _swapHops(sellToken, sellAmount, hops, out, deadline);
    }
}
