// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IAllowanceHolder
/// @notice A firm-quote aggregator's fixed allowance holder (after 0x's AllowanceHolder), as far as the
///         executor reads its calldata: `exec` grants `operator` a one-call allowance of `amount` of `token`
///         from the caller and calls `target` with `data` (the caller's address appended).
interface IAllowanceHolder {
    function exec(address operator, address token, uint256 amount, address payable target, bytes calldata data)
        external
        payable
        returns (bytes memory result);
}
