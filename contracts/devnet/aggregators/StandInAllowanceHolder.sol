// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title StandInAllowanceHolder
/// @notice Devnet only: the fixed allowance holder of the aggregator-b stand-in (after 0x's AllowanceHolder).
///         The taker approves this contract once; `exec` grants `operator` a one-call allowance of exactly
///         `amount` of `token` from the caller, calls `target` with `data` and the caller's address appended,
///         and clears the allowance. Only the operator may spend it, through `transferFrom`.
contract StandInAllowanceHolder {
    using SafeERC20 for IERC20;

    error ConfusedDeputy();
    error AllowanceExceeded(uint256 allowed, uint256 asked);
    error CallFailed(bytes reason);

    /// @notice Runs `target.call(data ++ msg.sender)` with `operator` allowed `amount` of `token` from the caller.
    function exec(address operator, address token, uint256 amount, address payable target, bytes calldata data)
        external
        payable
        returns (bytes memory result)
    {
        bytes32 slot = _slot(operator, msg.sender, token);
        assembly {
            tstore(slot, amount)
        }
        bool ok;
        (ok, result) = target.call{value: msg.value}(abi.encodePacked(data, msg.sender));
        assembly {
            tstore(slot, 0)
        }
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// @notice Spends the one-call allowance `exec` granted the caller (the operator) over `owner`'s `token`.
    function transferFrom(address token, address owner, address recipient, uint256 amount) external returns (bool) {
        bytes32 slot = _slot(msg.sender, owner, token);
        uint256 allowed;
        assembly {
            allowed := tload(slot)
        }
        if (allowed == 0) revert ConfusedDeputy();
        if (amount > allowed) revert AllowanceExceeded(allowed, amount);
        assembly {
            tstore(slot, sub(allowed, amount))
        }
        IERC20(token).safeTransferFrom(owner, recipient, amount);
        return true;
    }

    function _slot(address operator, address owner, address token) private pure returns (bytes32) {
        return keccak256(abi.encode(operator, owner, token));
    }
}
