// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice The canonical Uniswap V2 router (Router02), as far as the stand-ins call it.
interface IStandInV2Router {
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);
}

/// @notice The canonical Uniswap V3 SwapRouter, as far as the stand-ins call it.
interface IStandInV3Router {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 deadline;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    function exactInputSingle(ExactInputSingleParams calldata params) external payable returns (uint256 amountOut);
}

interface IStandInWETH {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

/// @title StandInSwaps
/// @notice Devnet only: the swapping shared by the third-party aggregator stand-ins. A route is a list of
///         hops through the canonical Uniswap V2 router or V3 SwapRouter; native ETH in is wrapped, native
///         ETH out unwrapped. Output is measured by balance change, so taxed tokens are counted honestly.
abstract contract StandInSwaps {
    using SafeERC20 for IERC20;

    /// @notice One hop: `kind` 0 swaps through the V2 router, 1 through the V3 router at `fee`.
    struct Hop {
        uint8 kind;
        address tokenOut;
        uint24 fee;
    }

    IStandInV2Router public immutable v2Router;
    IStandInV3Router public immutable v3Router;
    address public immutable weth;

    error EmptyRoute();
    error RouteDoesNotEndInWeth();
    error UnknownHopKind(uint8 kind);

    constructor(IStandInV2Router v2Router_, IStandInV3Router v3Router_, address weth_) {
        v2Router = v2Router_;
        v3Router = v3Router_;
        weth = weth_;
    }

    /// @dev Swaps `amountIn` of `tokenIn` (already held here; address(0) is ETH held here) along `hops` and
    ///      returns what this contract received of the last hop's token, unwrapped when `tokenOut` is ETH.
    function _swapHops(address tokenIn, uint256 amountIn, Hop[] memory hops, address tokenOut, uint256 deadline)
        internal
        returns (uint256 amountOut)
    {
        if (hops.length == 0) revert EmptyRoute();
        address token = tokenIn;
        if (token == address(0)) {
            IStandInWETH(weth).deposit{value: amountIn}();
            token = weth;
        }
        uint256 amount = amountIn;
        for (uint256 i = 0; i < hops.length; i++) {
            Hop memory hop = hops[i];
            uint256 before = IERC20(hop.tokenOut).balanceOf(address(this));
            if (hop.kind == 0) {
                IERC20(token).forceApprove(address(v2Router), amount);
                address[] memory path = new address[](2);
                path[0] = token;
                path[1] = hop.tokenOut;
                v2Router.swapExactTokensForTokens(amount, 0, path, address(this), deadline);
            } else if (hop.kind == 1) {
                IERC20(token).forceApprove(address(v3Router), amount);
                v3Router.exactInputSingle(
                    IStandInV3Router.ExactInputSingleParams(
                        token, hop.tokenOut, hop.fee, address(this), deadline, amount, 0, 0
                    )
                );
            } else {
                revert UnknownHopKind(hop.kind);
            }
            amount = IERC20(hop.tokenOut).balanceOf(address(this)) - before;
            token = hop.tokenOut;
        }
        if (tokenOut == address(0)) {
            if (token != weth) revert RouteDoesNotEndInWeth();
            IStandInWETH(weth).withdraw(amount);
        }
        return amount;
    }

    /// @dev Sends `amount` of `token` (address(0): ETH) to `to`.
    function _send(address token, address to, uint256 amount) internal {
        if (amount == 0) return;
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            require(ok, "ETH transfer failed");
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    /// @dev WETH pays out here when unwrapping.
    receive() external payable {}
}
