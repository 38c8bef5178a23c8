// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "solady/tokens/ERC20.sol";

/// @title SoladyLayoutToken
/// @notice Solady ERC-20 for the local devnet. Its balances are not in a Solidity mapping: a holder's
///         balance lives at `keccak256(abi.encodePacked(holder, uint96(0x87a211a2)))` (Solady's
///         `_BALANCE_SLOT_SEED`), which exercises balance-slot discovery for non-standard layouts.
/// @dev Solady's default infinite Permit2 allowance is switched off so allowances behave like any other
///      ERC-20; only the storage layout differs.
contract SoladyLayoutToken is ERC20 {
    /// @notice The only account allowed to mint (the deployer).
    address public immutable minter;
    uint8 private immutable _decimals;
    string private _name;
    string private _symbol;

    /// @notice Thrown when someone other than `minter` calls `mint`.
    error NotMinter(address caller);

    /// @param holders Each receives `amountEach` at deployment.
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        address[] memory holders,
        uint256 amountEach
    ) {
        minter = msg.sender;
        _name = name_;
        _symbol = symbol_;
        _decimals = decimals_;
        for (uint256 i = 0; i < holders.length; ++i) {
            _mint(holders[i], amountEach);
        }
    }

    /// @notice Mints `amount` to `to`. Minter only.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _mint(to, amount);
    }

    /// @inheritdoc ERC20
    function name() public view override returns (string memory) {
        return _name;
    }

    /// @inheritdoc ERC20
    function symbol() public view override returns (string memory) {
        return _symbol;
    }

    /// @inheritdoc ERC20
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @dev Standard allowance semantics for Permit2 too (Solady defaults to infinite).
    function _givePermit2InfiniteAllowance() internal pure override returns (bool) {
        return false;
    }
}
