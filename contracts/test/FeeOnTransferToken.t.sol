// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {FeeOnTransferToken} from "../devnet/FeeOnTransferToken.sol";

contract FeeOnTransferTokenTest is Test {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal spender = makeAddr("spender");
    uint256 internal constant AMOUNT = 1_000_000e18;

    function _deploy(uint16 feeBps) internal returns (FeeOnTransferToken) {
        address[] memory holders = new address[](2);
        holders[0] = alice;
        holders[1] = bob;
        return new FeeOnTransferToken("Taxed", "TAX", 18, holders, AMOUNT, feeBps);
    }

    function test_constructor_mintsUntaxed() public {
        FeeOnTransferToken token = _deploy(500);
        assertEq(token.balanceOf(alice), AMOUNT);
        assertEq(token.balanceOf(bob), AMOUNT);
        assertEq(token.totalSupply(), 2 * AMOUNT);
        assertEq(token.feeBps(), 500);
        assertEq(token.minter(), address(this));
        assertEq(token.decimals(), 18);
    }

    function test_constructor_revertsAboveMaxFee() public {
        address[] memory holders = new address[](0);
        vm.expectRevert(abi.encodeWithSelector(FeeOnTransferToken.FeeTooHigh.selector, uint16(1001), uint16(1000)));
        new FeeOnTransferToken("Taxed", "TAX", 18, holders, 0, 1001);
    }

    function test_constructor_acceptsMaxFee() public {
        assertEq(_deploy(1000).feeBps(), 1000);
    }

    function test_transfer_exampleAmounts() public {
        FeeOnTransferToken token = _deploy(100); // 1%
        vm.expectEmit(address(token));
        emit IERC20.Transfer(alice, address(0), 10);
        vm.expectEmit(address(token));
        emit IERC20.Transfer(alice, bob, 990);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 1000));
        assertEq(token.balanceOf(alice), AMOUNT - 1000);
        assertEq(token.balanceOf(bob), AMOUNT + 990);
        assertEq(token.totalSupply(), 2 * AMOUNT - 10);
    }

    function test_transfer_dustBelowOneFeeUnitIsFree() public {
        FeeOnTransferToken token = _deploy(100);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 99)); // 99 * 100 / 10000 rounds to 0
        assertEq(token.balanceOf(bob), AMOUNT + 99);
    }

    function test_fuzz_transferBurnsExactFee(uint16 feeBps, uint256 amount) public {
        feeBps = uint16(bound(feeBps, 0, 1000));
        amount = bound(amount, 0, AMOUNT);
        FeeOnTransferToken token = _deploy(feeBps);
        uint256 fee = amount * feeBps / 10_000;

        vm.prank(alice);
        assertTrue(token.transfer(bob, amount));

        assertEq(token.balanceOf(alice), AMOUNT - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount - fee);
        assertEq(token.totalSupply(), 2 * AMOUNT - fee);
    }

    function test_fuzz_transferFromSpendsFullAllowance(uint16 feeBps, uint256 amount, uint256 allowance_) public {
        feeBps = uint16(bound(feeBps, 0, 1000));
        amount = bound(amount, 0, AMOUNT);
        allowance_ = bound(allowance_, amount, type(uint256).max - 1);
        FeeOnTransferToken token = _deploy(feeBps);
        uint256 fee = amount * feeBps / 10_000;

        vm.prank(alice);
        token.approve(spender, allowance_);
        vm.prank(spender);
        assertTrue(token.transferFrom(alice, bob, amount));

        assertEq(token.allowance(alice, spender), allowance_ - amount);
        assertEq(token.balanceOf(alice), AMOUNT - amount);
        assertEq(token.balanceOf(bob), AMOUNT + amount - fee);
    }

    function test_fuzz_mintIsUntaxed(uint16 feeBps, uint128 amount) public {
        FeeOnTransferToken token = _deploy(uint16(bound(feeBps, 0, 1000)));
        token.mint(alice, amount);
        assertEq(token.balanceOf(alice), AMOUNT + amount);
        assertEq(token.totalSupply(), 2 * AMOUNT + amount);
    }

    function test_mint_revertsForNonMinter() public {
        FeeOnTransferToken token = _deploy(100);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(FeeOnTransferToken.NotMinter.selector, bob));
        token.mint(bob, 1);
    }

    function test_transfer_insufficientBalanceReportsRequestedAmount() public {
        FeeOnTransferToken token = _deploy(100);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, alice, AMOUNT, AMOUNT + 1)
        );
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, AMOUNT + 1);
    }
}
