// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title DevnetToken
/// @notice Plain OpenZeppelin ERC-20 with configurable decimals, for the local devnet.
/// @dev Balances use OZ's standard layout: `mapping(address => uint256)` at slot 0, so a holder's
///      balance lives at `keccak256(abi.encode(holder, uint256(0)))`.
contract DevnetToken is ERC20 {
    /// @notice The only account allowed to mint (the deployer).
    address public immutable minter;
    uint8 private immutable _decimals;

    /// @notice Thrown when someone other than `minter` calls `mint`.
    error NotMinter(address caller);

    /// @param holders Each receives `amountEach` at deployment.
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        address[] memory holders,
        uint256 amountEach
    ) ERC20(name_, symbol_) {
        minter = msg.sender;
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
}
