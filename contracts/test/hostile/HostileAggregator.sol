// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IExecutor} from "../../src/interfaces/IExecutor.sol";
import {ISettlementCollector} from "../../src/interfaces/ISettlementCollector.sol";
import {IUnlockCallback} from "../../src/interfaces/external/IPoolManager.sol";
import {IUniswapV3SwapCallback} from "../../src/interfaces/external/IUniswapV3Pool.sol";

/// @notice An aggregator router gone bad, named by an executor's deployment as its entry-1 router. Honest,
///         it takes exactly `amountIn` from its caller (ETH: the value) and pays `amountOut` from its own
///         reserve; each mode misbehaves one way. Attacks it makes from inside the call are counted, and
///         their failures swallowed so the swap goes on.
contract HostileAggregator {
    enum Mode {
        Honest,
        PullMore,
        PullFromPayer,
        Reenter,
        ShortChange,
        LeaveInput,
        PayElsewhere,
        RefundEth,
        ForceRefundEth
    }

    Mode public mode;
    IExecutor public executor;
    address public payer;
    address public elsewhere;
    uint256 public attacks;
    uint256 public successes;
    bytes4[] public errors;

    function configure(Mode mode_, IExecutor executor_, address payer_, address elsewhere_) external {
        (mode, executor, payer, elsewhere) = (mode_, executor_, payer_, elsewhere_);
        delete errors;
    }

    function errorCount() external view returns (uint256) {
        return errors.length;
    }

    /// @notice Swaps `amountIn` of `tokenIn` (address(0): ETH sent as value) from the caller for `amountOut`
    ///         of `tokenOut` (address(0): ETH) paid to the caller, misbehaving as `mode` says.
    function swap(address tokenIn, uint256 amountIn, address tokenOut, uint256 amountOut) external payable {
        Mode m = mode;
        if (m == Mode.PullFromPayer && tokenIn != address(0)) {
            _attempt(tokenIn, abi.encodeCall(IERC20.transferFrom, (payer, address(this), amountIn)));
        } else if (m == Mode.Reenter) {
            _reenter(tokenIn, amountIn, tokenOut);
        }
        if (tokenIn != address(0)) {
            uint256 pull = m == Mode.PullMore ? amountIn + 1 : m == Mode.LeaveInput ? amountIn / 2 : amountIn;
            // forge-lint: disable-next-line(erc20-unchecked-transfer) the test tokens revert on failure
            IERC20(tokenIn).transferFrom(msg.sender, address(this), pull);
        }
        if (m == Mode.RefundEth) _send(address(0), msg.sender, msg.value / 2);
        // Past `receive`: a contract that self-destructs to the caller as it is created.
        if (m == Mode.ForceRefundEth) new ForcedSend{value: msg.value / 2}(payable(msg.sender));
        _send(tokenOut, m == Mode.PayElsewhere ? elsewhere : msg.sender, m == Mode.ShortChange ? amountOut / 2 : amountOut);
    }

    /// @dev From inside the executor's call: both entry points again (paying with the payer's approval),
    ///      both swap callbacks, and a claim of the executor's fees.
    function _reenter(address tokenIn, uint256 amountIn, address tokenOut) private {
        IExecutor.SwapParams memory p = IExecutor.SwapParams(
            tokenIn, tokenOut, amountIn, 0, address(this), block.timestamp, 0, 0, bytes32(0), bytes32(0), bytes32(0)
        );
        address target = address(executor);
        _attempt(target, abi.encodeCall(IExecutor.swapThroughAggregator, (p, 1, msg.data)));
        _attempt(target, abi.encodeCall(IExecutor.swap, (p, hex"01")));
        _attempt(target, abi.encodeCall(IUniswapV3SwapCallback.uniswapV3SwapCallback, (int256(amountIn), 0, "")));
        _attempt(target, abi.encodeCall(IUnlockCallback.unlockCallback, (abi.encodePacked(tokenIn, amountIn, payer))));
        // The executor is the collector: claim its fees in the output token mid-swap.
        _attempt(target, abi.encodeCall(ISettlementCollector.claim, (tokenOut, address(this))));
    }

    function _attempt(address target, bytes memory call) private {
        ++attacks;
        (bool ok, bytes memory err) = target.call(call);
        if (ok) ++successes;
        else errors.push(err.length >= 4 ? bytes4(err) : bytes4(0));
    }

    function _send(address token, address to, uint256 amount) private {
        if (token == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            require(ok, "ETH transfer failed");
        } else {
            // forge-lint: disable-next-line(erc20-unchecked-transfer) the test tokens revert on failure
            IERC20(token).transfer(to, amount);
        }
    }

    receive() external payable {}
}

/// @notice Sends its value to `to` without calling it (SELFDESTRUCT in its constructor).
contract ForcedSend {
    constructor(address payable to) payable {
        selfdestruct(to);
    }
}
