// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title IWETH9
/// @notice Wrapping and unwrapping of the canonical wrapped ETH.
interface IWETH9 {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}
