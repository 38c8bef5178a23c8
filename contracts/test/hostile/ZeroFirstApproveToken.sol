// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice An ERC-20 that, like USDT, refuses to change a non-zero allowance to another non-zero one, and
///         spends even an unlimited allowance.
contract ZeroFirstApproveToken is ERC20 {
    error NonZeroToNonZero();

    constructor(address holder, uint256 supply) ERC20("ZeroFirst", "ZFA") {
        _mint(holder, supply);
    }

    function approve(address spender, uint256 value) public override returns (bool) {
        if (value != 0 && allowance(msg.sender, spender) != 0) revert NonZeroToNonZero();
        return super.approve(spender, value);
    }

    function _spendAllowance(address owner, address spender, uint256 value) internal override {
        uint256 allowed = allowance(owner, spender);
        if (allowed < value) revert ERC20InsufficientAllowance(spender, allowed, value);
        _approve(owner, spender, allowed - value, false);
    }
}
