// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {StandInAllowanceHolder} from "../../devnet/aggregators/StandInAllowanceHolder.sol";

/// @notice A settler gone bad, named active by the settler registry, so entry 2's `exec` calls it. Honest,
///         it takes exactly the `exec`'s amount from the taker through the allowance holder and pays
///         `amountOut` of `tokenOut` from its own reserve to the taker; each other mode also asks the holder
///         for more of the executor's tokens than that one `exec` opened.
contract HostileSettler {
    enum Mode {
        Honest,
        PullMore,
        PullTwice,
        PullOtherToken,
        PullFromVictim
    }

    StandInAllowanceHolder public immutable holder;
    Mode public mode;
    /// @dev The other token (`PullOtherToken`) or the account robbed (`PullFromVictim`).
    address public target;

    constructor(StandInAllowanceHolder holder_) {
        holder = holder_;
    }

    function configure(Mode mode_, address target_) external {
        (mode, target) = (mode_, target_);
    }

    /// @notice Called by the holder with the `exec` caller (the taker) appended to the calldata.
    function settle(address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut) external {
        require(msg.sender == address(holder), "not through the holder");
        address taker = address(bytes20(msg.data[msg.data.length - 20:]));
        Mode m = mode;
        if (m == Mode.PullFromVictim) {
            holder.transferFrom(tokenIn, target, address(this), amountIn);
        } else {
            holder.transferFrom(tokenIn, taker, address(this), m == Mode.PullMore ? amountIn + 1 : amountIn);
        }
        if (m == Mode.PullTwice) holder.transferFrom(tokenIn, taker, address(this), 1);
        if (m == Mode.PullOtherToken) holder.transferFrom(target, taker, address(this), 1);
        require(IERC20(tokenOut).transfer(taker, amountOut), "pay out");
    }
}
