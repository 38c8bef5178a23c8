// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @title BalanceProbe
/// @notice Simulation only, never deployed: its runtime code is placed by a state override at the synthetic
///         caller's address, so a candidate's complete transaction runs as that caller in one `eth_call`
///         while the probe measures what `recipient` received of `token` (address(0): ETH) by balance change
///         and the gas the transaction's call spent (instead of `eth_estimateGas`, whose binary search runs the
///         transaction again and again). A revert of the transaction is re-raised with its own data.
contract BalanceProbe {
    /// @notice Calls `target` with `data` and `value` (from this account's balance) and returns the
    ///         recipient's balance change (0 for recipient address(0): nothing measured), the gas the call
    ///         spent (the warm `CALL` itself included, the balance reads not) and the call's return data.
    function measure(address target, bytes calldata data, uint256 value, address token, address recipient)
        external
        returns (uint256 received, uint256 gasSpent, bytes memory result)
    {
        uint256 before = recipient == address(0) ? 0 : _balance(token, recipient);
        // A transaction's `to` is warm from its start: warm the target here too, outside the measurement.
        assembly {
            pop(extcodesize(target))
        }
        uint256 start = gasleft();
        bool ok;
        (ok, result) = target.call{value: value}(data);
        gasSpent = start - gasleft();
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        if (recipient != address(0)) received = _balance(token, recipient) - before;
    }

    /// @notice What `account` holds of `token` (address(0): ETH); read between the calls of a simulated block.
    function balanceOf(address token, address account) external view returns (uint256) {
        return _balance(token, account);
    }

    receive() external payable {}

    function _balance(address token, address account) private view returns (uint256) {
        return token == address(0) ? account.balance : IBalanceOf(token).balanceOf(account);
    }
}
