// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title FeeOnTransferToken
/// @notice OpenZeppelin ERC-20 that burns `amount * feeBps / 10000` of every transfer between two
///         non-zero addresses, so the recipient receives less than the sender sends. Mint and burn are
///         untaxed. Exercises routers that must measure received amounts instead of trusting inputs.
/// @dev The fee is burned (a `Transfer(from, address(0), fee)` event) rather than collected, so
///      `totalSupply` shrinks with every taxed transfer. `transferFrom` spends the full `amount`.
contract FeeOnTransferToken is ERC20 {
    /// @notice Upper bound for `feeBps` (10%).
    uint16 public constant MAX_FEE_BPS = 1000;

    /// @notice The only account allowed to mint (the deployer).
    address public immutable minter;
    /// @notice Transfer fee in basis points of the transferred amount.
    uint16 public immutable feeBps;
    uint8 private immutable _decimals;

    /// @notice Thrown when someone other than `minter` calls `mint`.
    error NotMinter(address caller);
    /// @notice Thrown by the constructor when `feeBps > MAX_FEE_BPS`.
    error FeeTooHigh(uint16 feeBps, uint16 maxFeeBps);

    /// @param holders Each receives `amountEach` at deployment (untaxed).
    /// @param feeBps_ Fee in basis points, at most `MAX_FEE_BPS`.
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        address[] memory holders,
        uint256 amountEach,
        uint16 feeBps_
    ) ERC20(name_, symbol_) {
        if (feeBps_ > MAX_FEE_BPS) revert FeeTooHigh(feeBps_, MAX_FEE_BPS);
        minter = msg.sender;
        feeBps = feeBps_;
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
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @dev Splits taxed transfers into a burn of the fee plus a transfer of the remainder.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) {
            // Check up front so the revert reports the caller's real balance and requested amount.
            uint256 balance = balanceOf(from);
            if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
            // mulDiv: exact floor without overflow for any uint256 amount.
            uint256 fee = Math.mulDiv(value, feeBps, 10_000);
            if (fee != 0) {
                super._update(from, address(0), fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }
}
