// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

/// @title NamespacedToken
/// @notice ERC-20 whose entire state lives in an ERC-7201 namespaced struct instead of slots 0..n, the
///         layout used by upgradeable tokens. Exercises balance-slot discovery: a holder's balance is at
///         `keccak256(abi.encode(holder, STORAGE_SLOT))` (the `balances` mapping is the struct's first member).
/// @dev Self-contained (no OZ upgradeable dependency). Standard semantics otherwise: an allowance of
///      `type(uint256).max` is never decremented, and `transferFrom` emits no `Approval`.
contract NamespacedToken is IERC20Metadata, IERC20Errors {
    /// @custom:storage-location erc7201:junction.devnet.NamespacedToken
    struct TokenStorage {
        mapping(address account => uint256) balances;
        mapping(address account => mapping(address spender => uint256)) allowances;
        uint256 totalSupply;
        string name;
        string symbol;
        uint8 decimals;
        address minter;
    }

    /// @notice ERC-7201 location of `TokenStorage`:
    ///         keccak256(abi.encode(uint256(keccak256("junction.devnet.NamespacedToken")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 public constant STORAGE_SLOT = 0xa401a1caa8ba83e9c6a984faaefa328ec3f9deeea52d5c1f86da4ee23b70e500;

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
        TokenStorage storage $ = _storage();
        $.name = name_;
        $.symbol = symbol_;
        $.decimals = decimals_;
        $.minter = msg.sender;
        for (uint256 i = 0; i < holders.length; ++i) {
            _mint(holders[i], amountEach);
        }
    }

    /// @notice Mints `amount` to `to`. Minter only.
    function mint(address to, uint256 amount) external {
        if (msg.sender != _storage().minter) revert NotMinter(msg.sender);
        _mint(to, amount);
    }

    /// @notice The only account allowed to mint (the deployer).
    function minter() external view returns (address) {
        return _storage().minter;
    }

    function name() external view returns (string memory) {
        return _storage().name;
    }

    function symbol() external view returns (string memory) {
        return _storage().symbol;
    }

    function decimals() external view returns (uint8) {
        return _storage().decimals;
    }

    function totalSupply() external view returns (uint256) {
        return _storage().totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _storage().balances[account];
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return _storage().allowances[owner][spender];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        _storage().allowances[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        mapping(address => uint256) storage fromAllowances = _storage().allowances[from];
        uint256 allowed = fromAllowances[msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                fromAllowances[msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (from == address(0)) revert ERC20InvalidSender(address(0));
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        TokenStorage storage $ = _storage();
        uint256 fromBalance = $.balances[from];
        if (fromBalance < value) revert ERC20InsufficientBalance(from, fromBalance, value);
        unchecked {
            // Cannot overflow: the sum of all balances is bounded by totalSupply.
            $.balances[from] = fromBalance - value;
            $.balances[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        TokenStorage storage $ = _storage();
        $.totalSupply += value; // checked: caps total supply at uint256 max
        unchecked {
            $.balances[to] += value;
        }
        emit Transfer(address(0), to, value);
    }

    function _storage() private pure returns (TokenStorage storage $) {
        assembly {
            $.slot := STORAGE_SLOT
        }
    }
}
