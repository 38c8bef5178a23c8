// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {SharesToken} from "../devnet/SharesToken.sol";

contract SharesTokenTest is Test {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal carol = makeAddr("carol");
    address internal spender = makeAddr("spender");
    uint256 internal constant AMOUNT = 1_000e18;
    SharesToken internal token;

    function setUp() public {
        token = _deploy(AMOUNT);
    }

    function _deploy(uint256 amountEach) internal returns (SharesToken) {
        address[] memory holders = new address[](2);
        holders[0] = alice;
        holders[1] = bob;
        return new SharesToken("Staked", "stX", 18, holders, amountEach);
    }

    function test_constructor_mintsOneToOne() public view {
        assertEq(token.balanceOf(alice), AMOUNT);
        assertEq(token.sharesOf(alice), AMOUNT);
        assertEq(token.totalSupply(), 2 * AMOUNT);
        assertEq(token.totalShares(), 2 * AMOUNT);
        assertEq(token.minter(), address(this));
        assertEq(token.decimals(), 18);
        assertEq(token.name(), "Staked");
        assertEq(token.symbol(), "stX");
    }

    function test_balanceOf_zeroWhenNoShares() public {
        SharesToken empty = new SharesToken("E", "E", 18, new address[](0), 0);
        assertEq(empty.balanceOf(alice), 0);
        assertEq(empty.totalSupply(), 0);
        vm.expectRevert(SharesToken.NoSharesOutstanding.selector);
        empty.rebase(1);
    }

    function test_rebase_scalesBalancesProportionally() public {
        token.mint(carol, AMOUNT / 2);
        token.rebase(5 * AMOUNT); // 2.5x AMOUNT pooled before → ×2
        assertEq(token.totalSupply(), 5 * AMOUNT);
        assertEq(token.balanceOf(alice), 2 * AMOUNT);
        assertEq(token.balanceOf(bob), 2 * AMOUNT);
        assertEq(token.balanceOf(carol), AMOUNT);
        assertEq(token.sharesOf(alice), AMOUNT); // shares untouched
    }

    function test_fuzz_rebase_balanceIsSharesTimesRate(uint256 newPooled, uint256 carolAmount) public {
        newPooled = bound(newPooled, 1, 1e36);
        carolAmount = bound(carolAmount, 0, 1e30);
        token.mint(carol, carolAmount);
        uint256 supplyBefore = token.totalSupply();
        uint256 aliceBefore = token.balanceOf(alice);
        uint256 carolBefore = token.balanceOf(carol);

        token.rebase(newPooled);

        assertEq(token.totalSupply(), newPooled);
        assertEq(token.balanceOf(alice), aliceBefore * newPooled / supplyBefore);
        assertEq(token.balanceOf(carol), carolBefore * newPooled / supplyBefore);
        assertLe(token.balanceOf(alice) + token.balanceOf(bob) + token.balanceOf(carol), newPooled);
    }

    function test_rebase_revertsOnZero() public {
        vm.expectRevert(SharesToken.ZeroTotalPooled.selector);
        token.rebase(0);
    }

    function test_rebase_revertsForNonMinter() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(SharesToken.NotMinter.selector, alice));
        token.rebase(1);
    }

    function test_mint_revertsForNonMinter() public {
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(SharesToken.NotMinter.selector, alice));
        token.mint(alice, 1);
    }

    function test_mint_atCurrentRate() public {
        token.rebase(4 * AMOUNT); // 2 tokens per share
        token.mint(carol, 100);
        assertEq(token.sharesOf(carol), 50);
        assertEq(token.balanceOf(carol), 100);
        assertEq(token.balanceOf(alice), 2 * AMOUNT);
        assertEq(token.totalSupply(), 4 * AMOUNT + 100);
    }

    /// The case that breaks a naive "move ceil(shares) to both sides" design: at 1.5 tokens per share,
    /// moving 1 share debits 1 token but would credit 2. Here the recipient gets floor(2/3) = 0 shares.
    function test_transfer_roundsAgainstSender() public {
        SharesToken t = _deploy(1);
        t.rebase(3);
        assertEq(t.balanceOf(alice), 1);
        assertEq(t.balanceOf(bob), 1);
        vm.prank(alice);
        assertTrue(t.transfer(bob, 1));
        assertEq(t.balanceOf(alice), 0);
        assertEq(t.balanceOf(bob), 1);
        assertLe(t.balanceOf(alice) + t.balanceOf(bob), t.totalSupply());
    }

    function test_fuzz_transferNeverCreatesValue(
        uint256 aliceExtra,
        uint256 bobExtra,
        uint256 newPooled,
        uint256 amount,
        bool toCarol
    ) public {
        SharesToken t = _deploy(0);
        t.mint(alice, bound(aliceExtra, 1, 1e30));
        t.mint(bob, bound(bobExtra, 0, 1e30));
        t.rebase(bound(newPooled, 1, 1e36));
        address to = toCarol ? carol : bob;
        amount = bound(amount, 0, t.balanceOf(alice));

        uint256 supply = t.totalSupply();
        uint256 senderBefore = t.balanceOf(alice);
        uint256 recipientBefore = t.balanceOf(to);

        vm.prank(alice);
        assertTrue(t.transfer(to, amount));

        uint256 debit = senderBefore - t.balanceOf(alice);
        uint256 credit = t.balanceOf(to) - recipientBefore;
        assertGe(debit, amount, "sender debited at least amount");
        assertLe(credit, amount, "recipient credited at most amount");
        assertGe(debit, credit, "transfer created value");
        assertEq(t.totalSupply(), supply);
        assertLe(t.balanceOf(alice) + t.balanceOf(bob) + t.balanceOf(carol), supply);
    }

    function test_fuzz_transferExactAtOneToOne(uint256 amount) public {
        amount = bound(amount, 0, AMOUNT);
        vm.prank(alice);
        assertTrue(token.transfer(bob, amount));
        assertEq(token.balanceOf(alice), AMOUNT - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount);
    }

    function test_transfer_revertsOverBalance() public {
        token.rebase(3 * AMOUNT); // 1.5x: alice holds 1500e18
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, 1500e18, 1500e18 + 1)
        );
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, 1500e18 + 1);
    }

    function test_transfer_fullBalanceAfterRebase() public {
        token.rebase(3 * AMOUNT - 1); // non-integer rate
        uint256 bal = token.balanceOf(alice);
        vm.prank(alice);
        assertTrue(token.transfer(bob, bal));
        assertEq(token.balanceOf(alice), 0);
    }

    function test_transferFrom_allowanceInTokenUnits() public {
        token.rebase(4 * AMOUNT);
        vm.prank(alice);
        token.approve(spender, 300);
        vm.prank(spender);
        assertTrue(token.transferFrom(alice, carol, 200));
        assertEq(token.allowance(alice, spender), 100);
        assertEq(token.balanceOf(carol), 200);
        vm.prank(spender);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, spender, 100, 101));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(alice, carol, 101);
    }

    function test_transferFrom_infiniteAllowanceNotDecremented() public {
        vm.prank(alice);
        token.approve(spender, type(uint256).max);
        vm.prank(spender);
        assertTrue(token.transferFrom(alice, carol, 1e18));
        assertEq(token.allowance(alice, spender), type(uint256).max);
    }
}
