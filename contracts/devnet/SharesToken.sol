// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title SharesToken
/// @notice Rebasing ERC-20 (stETH-style): accounts own shares of a pool and
///         `balanceOf(a) = shares[a] * totalPooled / totalShares` is computed, never stored, so no storage
///         slot holds a balance. The minter can `rebase` the pool, changing every balance proportionally.
/// @dev Rounding always goes against the sender, so a transfer never credits more than it debits:
///      - the sender is debited `ceil(amount * totalShares / totalPooled)` shares (balance drops by >= amount);
///      - the recipient is credited `floor(amount * totalShares / totalPooled)` shares (balance grows by <= amount).
///      The 0 or 1 share difference stays in `totalShares`, owned by nobody. Moving the same share count on both
///      sides would not suffice: the two floored balances could then gain more than the sender lost.
///      At a whole-number shares-per-token rate (e.g. 1:1 before any rebase) transfers are exact; otherwise the
///      recipient may get up to one share's worth less than `amount`. `Transfer` events carry `amount`.
///      Allowances are in token units; an allowance of `type(uint256).max` is never decremented.
contract SharesToken is IERC20Metadata, IERC20Errors {
    /// @notice The only account allowed to mint and rebase (the deployer).
    address public immutable minter;
    uint8 private immutable _decimals;
    string private _name;
    string private _symbol;

    /// @notice Sum of all shares, including unowned rounding dust.
    uint256 public totalShares;
    /// @notice Token amount backing `totalShares`; equals `totalSupply()`.
    uint256 public totalPooled;
    mapping(address account => uint256) private _shares;
    mapping(address owner => mapping(address spender => uint256)) private _allowances;

    /// @notice Emitted by `rebase`.
    event Rebased(uint256 previousTotalPooled, uint256 newTotalPooled);

    /// @notice Thrown when someone other than `minter` calls `mint` or `rebase`.
    error NotMinter(address caller);
    /// @notice Thrown by `rebase(0)`: a zero pool would zero every balance irreversibly.
    error ZeroTotalPooled();
    /// @notice Thrown by `rebase` before anything is minted: there are no balances to scale.
    error NoSharesOutstanding();

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

    modifier onlyMinter() {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _;
    }

    /// @notice Mints `amount` to `to` at the current share rate (1:1 while no shares exist). Minter only.
    /// @dev Shares round down, so existing holders never lose value to a mint.
    function mint(address to, uint256 amount) external onlyMinter {
        _mint(to, amount);
    }

    /// @notice Sets the pool size, scaling every balance by `newTotalPooled / totalPooled`. Minter only.
    function rebase(uint256 newTotalPooled) external onlyMinter {
        if (newTotalPooled == 0) revert ZeroTotalPooled();
        if (totalShares == 0) revert NoSharesOutstanding();
        emit Rebased(totalPooled, newTotalPooled);
        totalPooled = newTotalPooled;
    }

    /// @notice Shares owned by `account`.
    function sharesOf(address account) external view returns (uint256) {
        return _shares[account];
    }

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function decimals() external view returns (uint8) {
        return _decimals;
    }

    function totalSupply() external view returns (uint256) {
        return totalPooled;
    }

    function balanceOf(address account) public view returns (uint256) {
        uint256 total = totalShares;
        return total == 0 ? 0 : Math.mulDiv(_shares[account], totalPooled, total);
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return _allowances[owner][spender];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        _allowances[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = _allowances[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                _allowances[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (from == address(0)) revert ERC20InvalidSender(address(0));
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        // balanceOf(from) >= value  <=>  shares[from] >= ceil(value * totalShares / totalPooled).
        uint256 fromBalance = balanceOf(from);
        if (fromBalance < value) revert ERC20InsufficientBalance(from, fromBalance, value);
        if (value != 0) {
            _shares[from] -= _toShares(value, Math.Rounding.Ceil);
            _shares[to] += _toShares(value, Math.Rounding.Floor);
        }
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 newShares = totalShares == 0 ? value : _toShares(value, Math.Rounding.Floor);
        totalShares += newShares;
        totalPooled += value;
        _shares[to] += newShares;
        emit Transfer(address(0), to, value);
    }

    /// @dev Only called with totalShares > 0, which implies totalPooled > 0 (mint adds, rebase rejects 0).
    function _toShares(uint256 value, Math.Rounding rounding) private view returns (uint256) {
        return Math.mulDiv(value, totalShares, totalPooled, rounding);
    }
}
