// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice A hostile ERC-20: on every transfer it makes one armed call (re-entering the executor, spoofing
///         a callback, claiming from the collector...), optionally after pranking `msg.sender` through the
///         forge cheatcode address. It swallows the call's failure so the outer swap goes on, and records
///         whether the attack succeeded.
contract ReentrantToken is ERC20 {
    address private constant VM = address(uint160(uint256(keccak256("hevm cheat code"))));

    address public target;
    bytes public payload;
    address public prankAs;
    bool private _inAttack;

    uint256 public attempts;
    uint256 public successes;
    bytes public lastError;

    constructor(address holder, uint256 supply) ERC20("Reentrant", "EVIL") {
        _mint(holder, supply);
    }

    /// @notice Arms the hook: every later transfer calls `target_` with `payload_` (as `prankAs_` if set).
    function arm(address target_, bytes calldata payload_, address prankAs_) external {
        target = target_;
        payload = payload_;
        prankAs = prankAs_;
    }

    function disarm() external {
        target = address(0);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (target == address(0) || _inAttack) return;
        _inAttack = true;
        ++attempts;
        if (prankAs != address(0)) {
            (bool pranked,) = VM.call(abi.encodeWithSignature("prank(address)", prankAs));
            require(pranked, "prank failed");
        }
        (bool ok, bytes memory err) = target.call(payload);
        if (ok) ++successes;
        else lastError = err;
        _inAttack = false;
    }
}
