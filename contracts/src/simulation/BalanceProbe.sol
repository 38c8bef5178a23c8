// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @title BalanceProbe
/// @notice Simulation only, never deployed: its runtime code is placed by a state override at the synthetic
///         caller's address, so a third-party candidate's complete transaction runs as that caller while the
///         probe measures what `recipient` received of `token` (address(0): ETH) by balance change. A revert
///         of the transaction is re-raised with its own data.
contract BalanceProbe {
    /// @notice Calls `target` with `data` and `value` (from this account's balance) and returns the
    ///         recipient's balance change.
    function probe(address target, bytes calldata data, uint256 value, address token, address recipient)
        external
        returns (uint256 received)
    {
        uint256 before = _balance(token, recipient);
        (bool ok, bytes memory result) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        received = _balance(token, recipient) - before;
    }

    receive() external payable {}

    function _balance(address token, address account) private view returns (uint256) {
        return token == address(0) ? account.balance : IBalanceOf(token).balanceOf(account);
    }
}
