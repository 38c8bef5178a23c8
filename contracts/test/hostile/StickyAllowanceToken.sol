// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice An ERC-20 whose `transferFrom` checks the allowance but never spends it (some tokens skip the
///         decrement for trusted spenders): after an aggregator pulled its input, the executor's approval is
///         still there unless the executor resets it.
contract StickyAllowanceToken is ERC20 {
    constructor(address holder, uint256 supply) ERC20("Sticky", "STICKY") {
        _mint(holder, supply);
    }

    function _spendAllowance(address owner, address spender, uint256 value) internal view override {
        uint256 allowed = allowance(owner, spender);
        if (allowed < value) revert ERC20InsufficientAllowance(spender, allowed, value);
    }
}
